/**
 * The object fields type-graphql would answer with its basic resolver: a read of the property
 * through an empty middleware chain, which costs a closure and an object per field and value (a
 * home valuation has 73 fields; 100 of them, 7,300). graphql's default resolver reads the same
 * property, and a compiled executor (compiled-executor.ts) turns the read into plain code, so these
 * fields are left without a resolver. A field keeps its resolver if it has a resolver method,
 * middleware (`@Rounded`), roles or arguments, or a name other than its property's.
 */
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { getMetadataStorage, type BuildSchemaOptions } from 'type-graphql';

/** Removes the plain fields' resolvers from `resolvers` (type-graphql's map of the schema it built with `options`). */
export function dropPlainFieldResolvers(resolvers: GraphQLResolverMap<unknown>, options: Pick<BuildSchemaOptions, 'globalMiddlewares'>): void {
  // A global middleware runs on every field: then none is plain.
  if (options.globalMiddlewares?.length) return;
  const storage = getMetadataStorage();
  const withMethods = new Map<Function, Set<string>>();
  for (const r of storage.fieldResolvers) {
    const owner = r.getObjectType?.() ?? r.target;
    withMethods.set(owner, (withMethods.get(owner) ?? new Set()).add(r.methodName));
  }
  for (const objectType of storage.objectTypes) {
    const fields = resolvers[objectType.name] as Record<string, unknown> | undefined;
    // Interface fields are merged in by rules of their own: such types keep every resolver.
    if (!fields || objectType.interfaceClasses?.length) continue;
    const seen = new Set<string>();
    // Own fields first, then each superclass's not overridden (as type-graphql merges them).
    for (let target: Function | null = objectType.target; target && target !== Function.prototype; target = Object.getPrototypeOf(target) as Function | null) {
      for (const field of storage.fields) {
        if (field.target !== target || seen.has(field.name)) continue;
        seen.add(field.name);
        const plain = field.schemaName === field.name && !field.middlewares?.length && !field.roles?.length && !field.params?.length && !withMethods.get(field.target)?.has(field.name);
        if (plain && typeof fields[field.name] === 'function') delete fields[field.name];
      }
    }
  }
}
