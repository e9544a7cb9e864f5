/**
 * Links to the API's files (a valuation's report, a backtest's PDF and CSV). A plain navigation
 * would not carry the key, so a click fetches the file with it and saves it; the link is busy
 * (aria-busy) meanwhile, and a failure is shown as the rest of the page shows one.
 */
import { SERVICE_ROOT, fetchFile } from './api';
import { saveFile } from './dom';

export interface KeyedDownloads {
  /** The signed-in key, or null when signed out (the click then does nothing). */
  key(): string | null;
  showError(error: unknown): void;
}

export function downloadLink(label: string, path: string, file: string, testid: string, downloads: KeyedDownloads): HTMLAnchorElement {
  const link = document.createElement('a');
  link.href = new URL(path, SERVICE_ROOT).href;
  link.textContent = label;
  link.dataset.testid = testid;
  link.dataset.kind = label.toLowerCase();
  link.addEventListener('click', (event) => {
    event.preventDefault();
    void download(path, file, link, downloads);
  });
  return link;
}

async function download(path: string, name: string, link: HTMLAnchorElement, downloads: KeyedDownloads): Promise<void> {
  const key = downloads.key();
  if (!key || link.getAttribute('aria-busy') === 'true') return;
  link.setAttribute('aria-busy', 'true');
  try {
    saveFile(await fetchFile(key, path), name);
  } catch (error) {
    downloads.showError(error);
  } finally {
    link.removeAttribute('aria-busy');
  }
}
