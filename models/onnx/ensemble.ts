import { attr, node, type GraphBody, type Node, type Tensor } from './builder';

/** A member's name becomes the scope of its tensors and nodes ('gbdt/imputed'), so it may not contain the separator. */
export const MEMBER_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const SCOPE_SEPARATOR = '/';

/** Throws unless the names are usable, distinct member names (at least one). */
export function checkMemberNames(names: readonly string[]): void {
  if (names.length === 0) throw new RangeError('an ensemble needs at least one member');
  for (const name of names) {
    if (!MEMBER_NAME_PATTERN.test(name)) throw new RangeError(`member name '${name}' must match ${MEMBER_NAME_PATTERN}`);
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new RangeError(`member name '${name}' is used twice`);
    seen.add(name);
  }
}

/**
 * Moves one converter's graph body into the scope `scope/`: every tensor the body defines (node outputs
 * and initializers, including its output) is renamed `scope/name`, and every node is named
 * `scope/<op_type>_<index>`. Names the body only reads (the graph input) and '' (an omitted optional
 * input) are left as they are. Returns the body and the renamed `output`.
 */
export function scopeBody(body: GraphBody, scope: string, output: string): { body: GraphBody; output: string } {
  const defined = new Set<string>([...body.initializers.map((t) => t.name), ...body.nodes.flatMap((n) => n.output)]);
  if (!defined.has(output)) throw new Error(`member '${scope}' does not compute '${output}'`);
  const rename = (name: string): string => (name !== '' && defined.has(name) ? `${scope}${SCOPE_SEPARATOR}${name}` : name);
  const nodes = body.nodes.map(
    (n, i): Node => ({ ...n, name: `${scope}${SCOPE_SEPARATOR}${n.op_type}_${i}`, input: n.input.map(rename), output: n.output.map(rename) }),
  );
  const initializers = body.initializers.map((t): Tensor => ({ ...t, name: rename(t.name) }));
  return { body: { nodes, initializers }, output: rename(output) };
}

/** Throws if two nodes, or two defined tensors, share a name (ONNX requires SSA form and onnxruntime would refuse the file). */
function checkUniqueNames(body: GraphBody, input: string): void {
  const nodeNames = new Set<string>();
  const tensorNames = new Set<string>([input]);
  for (const n of body.nodes) {
    if (n.name !== undefined) {
      if (nodeNames.has(n.name)) throw new Error(`node name '${n.name}' is used twice`);
      nodeNames.add(n.name);
    }
  }
  for (const name of [...body.initializers.map((t) => t.name), ...body.nodes.flatMap((n) => n.output)]) {
    if (tensorNames.has(name)) throw new Error(`tensor name '${name}' is defined twice`);
    tensorNames.add(name);
  }
}

/**
 * Joins member graph bodies (each reading `input` [N, F] and writing its own `memberOutput` [N, 1]) into
 * one body that writes `output` [N, M] by Concat(axis = 1): column j is member j's prediction.
 */
export function combineMembers(
  members: readonly { name: string; body: GraphBody; output: string }[],
  input: string,
  output: string,
): GraphBody {
  checkMemberNames(members.map((m) => m.name));
  const scoped = members.map((m) => scopeBody(m.body, m.name, m.output));
  // no member name contains the separator, so this name cannot collide with a scoped one
  const concat = { ...node('Concat', scoped.map((s) => s.output), [output], [attr.int('axis', 1)]), name: 'concat_members' };
  const combined: GraphBody = {
    nodes: [...scoped.flatMap((s) => s.body.nodes), concat],
    initializers: scoped.flatMap((s) => s.body.initializers),
  };
  checkUniqueNames(combined, input);
  return combined;
}
