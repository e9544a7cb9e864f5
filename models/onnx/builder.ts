import { Root } from 'protobufjs';
import { INPUT_NAME, OUTPUT_NAME, PRODUCER_NAME } from '../runtime/model-contract';
import { ONNX_PROTO } from './onnx-proto';

/** IR 8 with ai.onnx 17 is what ONNX 1.12 writes; ai.onnx.ml 3 has TreeEnsembleRegressor-3 and Imputer-1. All run on onnxruntime 1.30. */
const IR_VERSION = 8;
export const ML_DOMAIN = 'ai.onnx.ml';
const OPSETS = [
  { domain: '', version: 17 },
  { domain: ML_DOMAIN, version: 3 },
];

const ModelProto = Root.fromJSON(ONNX_PROTO).lookupType('onnx.ModelProto');
const utf8 = new TextEncoder();

// AttributeProto.AttributeType and TensorProto.DataType values from onnx.proto
const FLOAT = 1;
const INT = 2;
const STRING = 3;
const FLOATS = 6;
const INTS = 7;
const STRINGS = 8;

export interface Attribute {
  readonly name: string;
  readonly type: number;
  readonly f?: number;
  readonly i?: number;
  readonly s?: Uint8Array;
  readonly floats?: number[];
  readonly ints?: number[];
  readonly strings?: Uint8Array[];
}

export interface Node {
  /** Optional in ONNX; the single-model converters leave it out, an ensemble names every node. */
  readonly name?: string;
  readonly op_type: string;
  readonly domain: string;
  readonly input: string[];
  readonly output: string[];
  readonly attribute: Attribute[];
}

export interface Tensor {
  readonly name: string;
  readonly data_type: number;
  readonly dims: number[];
  readonly float_data: number[];
}

/** The part of a model a converter supplies; inputs, outputs, opsets and metadata are the same for all. */
export interface GraphBody {
  readonly nodes: Node[];
  readonly initializers: Tensor[];
}

export const attr = {
  float: (name: string, f: number): Attribute => ({ name, type: FLOAT, f }),
  int: (name: string, i: number): Attribute => ({ name, type: INT, i }),
  string: (name: string, s: string): Attribute => ({ name, type: STRING, s: utf8.encode(s) }),
  floats: (name: string, values: ArrayLike<number>): Attribute => ({ name, type: FLOATS, floats: Array.from(values) }),
  ints: (name: string, values: ArrayLike<number>): Attribute => ({ name, type: INTS, ints: Array.from(values) }),
  /** Repeated strings share one encoded buffer per distinct value (tree modes repeat thousands of times). */
  strings(name: string, values: readonly string[]): Attribute {
    const cache = new Map<string, Uint8Array>();
    const encoded = values.map((v) => cache.get(v) ?? cache.set(v, utf8.encode(v)).get(v) as Uint8Array);
    return { name, type: STRINGS, strings: encoded };
  },
};

export function node(op_type: string, input: string[], output: string[], attribute: Attribute[], domain = ''): Node {
  return { op_type, domain, input, output, attribute };
}

export function floatTensor(name: string, dims: number[], values: ArrayLike<number>): Tensor {
  return { name, data_type: FLOAT, dims, float_data: Array.from(values) };
}

function tensorValueInfo(name: string, dims: ReadonlyArray<number | string>) {
  const dim = dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d }));
  return { name, type: { tensor_type: { elem_type: FLOAT, shape: { dim } } } };
}

export interface EncodeOptions {
  /** Columns of the output [N, outputWidth]. @default 1 */
  readonly outputWidth?: number;
  /**
   * 'all' declares every opset the exporters use (what single-model files have always declared);
   * 'used' declares only the domains the graph's nodes use.
   * @default 'all'
   */
  readonly opsets?: 'all' | 'used';
}

/** The opset imports for the domains `nodes` use, at the versions the exporters target, in OPSETS order. */
export function usedOpsets(nodes: readonly Node[]): { domain: string; version: number }[] {
  const domains = new Set(nodes.map((n) => n.domain));
  for (const domain of domains) {
    if (!OPSETS.some((o) => o.domain === domain)) throw new RangeError(`no opset version is set for domain '${domain}'`);
  }
  return OPSETS.filter((o) => domains.has(o.domain));
}

/** Serialises a model with the contract's input [N, inputWidth] and output [N, 1] (or [N, outputWidth]). */
export function encodeModel(
  body: GraphBody,
  inputWidth: number,
  graphName: string,
  metadata: Readonly<Record<string, string>>,
  options: EncodeOptions = {},
): Uint8Array {
  const { outputWidth = 1, opsets = 'all' } = options;
  if (!Number.isInteger(outputWidth) || outputWidth < 1) throw new RangeError(`output width must be a positive integer, got ${outputWidth}`);
  const message = ModelProto.fromObject({
    ir_version: IR_VERSION,
    producer_name: PRODUCER_NAME,
    opset_import: opsets === 'used' ? usedOpsets(body.nodes) : OPSETS,
    graph: {
      name: graphName,
      node: body.nodes,
      initializer: body.initializers,
      input: [tensorValueInfo(INPUT_NAME, ['N', inputWidth])],
      output: [tensorValueInfo(OUTPUT_NAME, ['N', outputWidth])],
    },
    metadata_props: Object.entries(metadata).map(([key, value]) => ({ key, value })),
  });
  return ModelProto.encode(message).finish();
}
