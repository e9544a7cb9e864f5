/**
 * What every exported .onnx model promises its runtime: one float32 input [N, F] and one float32
 * output [N, 1], plus these metadata_props keys. Exporters and the runtime both import this file
 * and nothing else from each other.
 */
export const INPUT_NAME = 'features';
export const OUTPUT_NAME = 'prediction';

export const METADATA_KEYS = {
  /** JSON array of the input columns' names, in order. */
  featureNames: 'feature_names',
  /** Tool that wrote the file. */
  producer: 'producer',
  /** Model family, e.g. 'hist_gradient_boosting'. */
  family: 'model_family',
} as const;

export const PRODUCER_NAME = 'tashkent-valuation';
