/** The page's elements by id: index.html and the scripts must agree, so a missing one fails loudly. */
export function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from index.html`);
  return found as T;
}

type ElementSpec = string | readonly [id: string, type: abstract new () => HTMLElement];
type ElementOf<S> = S extends readonly [string, abstract new () => infer E] ? E : HTMLElement;

/**
 * Several elements at once: `{ name: id }` gives an HTMLElement, `{ name: [id, HTMLSelectElement] }`
 * one checked to be of that type.
 */
export function elements<T extends Record<string, ElementSpec>>(specs: T): { [K in keyof T]: ElementOf<T[K]> } {
  const found: Record<string, HTMLElement> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const [id, type] = typeof spec === 'string' ? [spec, HTMLElement] : spec;
    const candidate = element(id);
    if (!(candidate instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
    found[name] = candidate;
  }
  return found as { [K in keyof T]: ElementOf<T[K]> };
}

/** Saves a file the page fetched (with the key) under `name`, through a temporary object URL. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** An element with its text (never parsed as HTML), a test id and optionally a class. */
export function textElement<K extends keyof HTMLElementTagNameMap>(tag: K, text: string, testid: string, className?: string): HTMLElementTagNameMap[K] {
  const found = document.createElement(tag);
  found.textContent = text;
  found.dataset.testid = testid;
  if (className) found.className = className;
  return found;
}

/** A table cell with its text; a th heads its row. */
export function textCell(text: string, testid: string, tag: 'td' | 'th' = 'td'): HTMLTableCellElement {
  const cell = textElement(tag, text, testid);
  if (tag === 'th') cell.scope = 'row';
  return cell;
}
