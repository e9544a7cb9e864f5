import { INPUT_NAME, METADATA_KEYS, OUTPUT_NAME, PRODUCER_NAME } from '../runtime/model-contract';
import { encodeModel } from './builder';
import type { Converter } from './converters/converter';
import { histGradientBoostingConverter } from './converters/hist-gradient-boosting';
import { nearestComparablesConverter } from './converters/nearest-comparables';
import { randomForestConverter } from './converters/random-forest';
import { ridgeConverter } from './converters/ridge';

/** The one place model families are registered for export. */
const CONVERTERS: readonly Converter<object>[] = [histGradientBoostingConverter, randomForestConverter, ridgeConverter, nearestComparablesConverter];

export interface ToOnnxOptions {
  /** One name per input column, in order; stored in metadata_props. */
  readonly featureNames: readonly string[];
  /** Extra metadata_props entries (e.g. training data snapshot, target unit). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** Serialises a fitted model to .onnx bytes following the model contract. */
export function toOnnx(model: object, opts: ToOnnxOptions): Uint8Array {
  const converter = CONVERTERS.find((c) => c.accepts(model));
  if (!converter) throw new TypeError(`no ONNX converter registered for ${model.constructor.name}`);
  const width = converter.inputWidth(model);
  const { featureNames, metadata = {} } = opts;
  if (featureNames.length !== width) throw new RangeError(`${featureNames.length} feature names for a model of ${width} features`);
  if (new Set(featureNames).size !== featureNames.length) throw new RangeError('feature names must be distinct');
  const reserved = Object.values(METADATA_KEYS) as string[];
  for (const key of Object.keys(metadata)) {
    if (reserved.includes(key)) throw new RangeError(`metadata key '${key}' is reserved`);
  }
  const body = converter.convert(model, INPUT_NAME, OUTPUT_NAME);
  return encodeModel(body, width, converter.family, {
    [METADATA_KEYS.featureNames]: JSON.stringify(featureNames),
    [METADATA_KEYS.producer]: PRODUCER_NAME,
    [METADATA_KEYS.family]: converter.family,
    ...metadata,
  });
}
