import type { INamespace } from 'protobufjs';

/**
 * The subset of onnx/onnx.proto (proto2, package onnx) that the exporters write, as a protobufjs JSON
 * descriptor. Field ids are the official ones; repeated scalars are expanded (unpacked) as proto2
 * declares them, except TensorProto.float_data, which onnx.proto marks [packed = true].
 */
const expanded = { packed: false };
const packed = { packed: true };

export const ONNX_PROTO: INamespace = {
  nested: {
    onnx: {
      nested: {
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'AttributeType', id: 20 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            floats: { rule: 'repeated', type: 'float', id: 7, options: expanded },
            ints: { rule: 'repeated', type: 'int64', id: 8, options: expanded },
            strings: { rule: 'repeated', type: 'bytes', id: 9 },
          },
          nested: {
            AttributeType: {
              values: { UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7, STRINGS: 8 },
            },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: 'string', id: 1 },
            type: { type: 'TypeProto', id: 2 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            domain: { type: 'string', id: 7 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            producer_name: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            metadata_props: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
        StringStringEntryProto: {
          fields: {
            key: { type: 'string', id: 1 },
            value: { type: 'string', id: 2 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1, options: expanded },
            data_type: { type: 'int32', id: 2 },
            float_data: { rule: 'repeated', type: 'float', id: 4, options: packed },
            name: { type: 'string', id: 8 },
          },
          nested: {
            DataType: { values: { UNDEFINED: 0, FLOAT: 1 } },
          },
        },
        TensorShapeProto: {
          fields: {
            dim: { rule: 'repeated', type: 'Dimension', id: 1 },
          },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ['dim_value', 'dim_param'] } },
              fields: {
                dim_value: { type: 'int64', id: 1 },
                dim_param: { type: 'string', id: 2 },
              },
            },
          },
        },
        TypeProto: {
          oneofs: { value: { oneof: ['tensor_type'] } },
          fields: {
            tensor_type: { type: 'Tensor', id: 1 },
          },
          nested: {
            Tensor: {
              fields: {
                elem_type: { type: 'int32', id: 1 },
                shape: { type: 'TensorShapeProto', id: 2 },
              },
            },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: 'string', id: 1 },
            version: { type: 'int64', id: 2 },
          },
        },
      },
    },
  },
};
