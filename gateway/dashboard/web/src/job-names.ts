/**
 * The file names of the jobs this browser uploaded. The service records no file name (a job is its
 * items), so the page remembers the name it sent each job's file under, in localStorage (the
 * newest KEPT), and shows it beside the job; a job submitted otherwise has none.
 */
const STORAGE = 'tashkent-valuation.file-names';
/** Names remembered at most: the job list shows the newest 20 jobs. */
const KEPT = 200;

function read(): [string, string][] {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string') : [];
  } catch {
    return []; // storage blocked or garbled: no names, nothing else lost
  }
}

export function rememberFileName(id: string, name: string): void {
  const kept = [...read().filter(([known]) => known !== id), [id, name] as [string, string]].slice(-KEPT);
  try {
    localStorage.setItem(STORAGE, JSON.stringify(kept));
  } catch {
    // storage full or blocked: the name is shown this once only
  }
}

export function fileNameOf(id: string): string | undefined {
  return read().find(([known]) => known === id)?.[1];
}
