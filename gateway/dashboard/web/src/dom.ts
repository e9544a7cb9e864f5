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
