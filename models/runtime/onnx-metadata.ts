import { Reader } from 'protobufjs/minimal';

/** ModelProto field ids (onnx/onnx.proto): producer_name = 2, metadata_props = 14 (StringStringEntryProto key = 1, value = 2). */
const PRODUCER_NAME_FIELD = 2;
const METADATA_PROPS_FIELD = 14;
const LENGTH_DELIMITED = 2;

export interface ModelMetadata {
  readonly producerName: string;
  readonly props: Readonly<Record<string, string>>;
}

/**
 * Reads producer_name and metadata_props from .onnx bytes, skipping everything else (the graph is not
 * decoded). onnxruntime-node's InferenceSession does not expose custom metadata, hence this reader.
 */
export function readModelMetadata(bytes: Uint8Array): ModelMetadata {
  const reader = Reader.create(bytes);
  let producerName = '';
  const props: Record<string, string> = {};
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === PRODUCER_NAME_FIELD && wire === LENGTH_DELIMITED) {
      producerName = reader.string();
    } else if (field === METADATA_PROPS_FIELD && wire === LENGTH_DELIMITED) {
      const end = reader.uint32() + reader.pos;
      let key = '';
      let value = '';
      while (reader.pos < end) {
        const t = reader.uint32();
        if (t === ((1 << 3) | LENGTH_DELIMITED)) key = reader.string();
        else if (t === ((2 << 3) | LENGTH_DELIMITED)) value = reader.string();
        else reader.skipType(t & 7);
      }
      props[key] = value;
    } else {
      reader.skipType(wire);
    }
  }
  return { producerName, props };
}
