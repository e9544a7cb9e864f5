/**
 * What every exported .onnx model promises its runtime: one float32 input [N, F] and one float32
 * output [N, 1], plus these metadata_props keys. Exporters and the runtime both import this file
 * and nothing else from each other.
 *
 * An ensemble file (model_family 'ensemble') widens the output to [N, M]: column j is member j's
 * prediction, and metadata_props output_names lists the M member names in column order.
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
  /** JSON array of the output columns' names (an ensemble's member names), in order. */
  outputNames: 'output_names',
  /** JSON array of each output column's model family, in the order of output_names. */
  memberFamilies: 'member_families',
} as const;

export const PRODUCER_NAME = 'tashkent-valuation';

/** model_family of a file holding several models side by side, one output column each. */
export const ENSEMBLE_FAMILY = 'ensemble';
