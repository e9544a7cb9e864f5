/**
 * How deeply a request value nests (objects and arrays), measured without recursion. JSON.parse
 * takes any depth, but recursive code after it (validators, JSON.stringify, a cost walk) runs out
 * of stack at a few thousand levels; no request of the service nests more than a few levels, so
 * bodies and GraphQL variables are measured here first and refused past MAX_NESTING_DEPTH.
 */
import { ApiError } from './errors';

/** Levels of objects and arrays accepted in one field's value (a batch item's home is one). */
export const MAX_NESTING_DEPTH = 32;

/**
 * The keys and indexes leading to the first object or array nested deeper than `maxDepth` in
 * `value` (`{ a: 1 }` is one level), or undefined when there is none.
 */
export function tooDeepPath(value: unknown, maxDepth = MAX_NESTING_DEPTH): Array<string | number> | undefined {
  interface Frame { value: object; depth: number; key?: string | number; parent?: Frame }
  if (typeof value !== 'object' || value === null) return undefined;
  const pending: Frame[] = [{ value, depth: 1 }];
  for (let frame = pending.pop(); frame; frame = pending.pop()) {
    if (frame.depth > maxDepth) {
      const path: Array<string | number> = [];
      for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.unshift(at.key);
      return path;
    }
    const parent = frame;
    const visit = (child: unknown, key: string | number) => {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: parent.depth + 1, key, parent });
    };
    if (Array.isArray(parent.value)) parent.value.forEach(visit);
    else for (const key of Object.keys(parent.value)) visit((parent.value as Record<string, unknown>)[key], key);
  }
  return undefined;
}

/** items[0].home.area from ['items', 0, 'home', 'area']. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

/** The message of a value refused for its depth. */
export function tooDeepMessage(field: string): string {
  return `${field} is nested more than ${MAX_NESTING_DEPTH} levels deep`;
}

/** Throws INVALID_PARAMETER naming `field` when its value nests deeper than MAX_NESTING_DEPTH. */
export function checkNesting(value: unknown, field: string): void {
  if (tooDeepPath(value) !== undefined) throw new ApiError('INVALID_PARAMETER', tooDeepMessage(field), field);
}
