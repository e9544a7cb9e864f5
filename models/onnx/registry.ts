import { ENSEMBLE_FAMILY, INPUT_NAME, METADATA_KEYS, OUTPUT_NAME, PRODUCER_NAME } from '../runtime/model-contract';
import { encodeModel } from './builder';
import type { Converter } from './converters/converter';
import { histGradientBoostingConverter } from './converters/hist-gradient-boosting';
import { nearestComparablesConverter } from './converters/nearest-comparables';
import { randomForestConverter } from './converters/random-forest';
import { ridgeConverter } from './converters/ridge';
import { checkMemberNames, combineMembers } from './ensemble';

/** The one place model families are registered for export. */
const CONVERTERS: readonly Converter<object>[] = [histGradientBoostingConverter, randomForestConverter, ridgeConverter, nearestComparablesConverter];

export interface ToOnnxOptions {
  /** One name per input column, in order; stored in metadata_props. */
  readonly featureNames: readonly string[];
  /** Extra metadata_props entries (e.g. training data snapshot, target unit). */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** One model of an ensemble; `name` labels its output column and scopes its graph ('gbdt/...'). */
export interface EnsembleMember {
  readonly name: string;
  readonly model: object;
}

function converterFor(model: object): Converter<object> {
  const converter = CONVERTERS.find((c) => c.accepts(model));
  if (!converter) throw new TypeError(`no ONNX converter registered for ${model.constructor.name}`);
  return converter;
}

function checkOptions(width: number, opts: ToOnnxOptions): void {
  const { featureNames, metadata = {} } = opts;
  if (featureNames.length !== width) throw new RangeError(`${featureNames.length} feature names for a model of ${width} features`);
  if (new Set(featureNames).size !== featureNames.length) throw new RangeError('feature names must be distinct');
  const reserved = Object.values(METADATA_KEYS) as string[];
  for (const key of Object.keys(metadata)) {
    if (reserved.includes(key)) throw new RangeError(`metadata key '${key}' is reserved`);
  }
}

/** Serialises a fitted model to .onnx bytes following the model contract. */
export function toOnnx(model: object, opts: ToOnnxOptions): Uint8Array {
  const converter = converterFor(model);
  const width = converter.inputWidth(model);
  checkOptions(width, opts);
  const { featureNames, metadata = {} } = opts;
  const body = converter.convert(model, INPUT_NAME, OUTPUT_NAME);
  return encodeModel(body, width, converter.family, {
    [METADATA_KEYS.featureNames]: JSON.stringify(featureNames),
    [METADATA_KEYS.producer]: PRODUCER_NAME,
    [METADATA_KEYS.family]: converter.family,
    ...metadata,
  });
}

/**
 * Serialises fitted models that read the same features into ONE .onnx graph, so one session call values
 * them all: input 'features' [N, F], output 'prediction' [N, M] whose column j is members[j]'s
 * prediction (each member's graph is its single-model graph, scoped by its name, and the columns are
 * joined by Concat). metadata_props: feature_names, output_names (the member names in column order),
 * member_families, producer, model_family 'ensemble', and `metadata`. Declares only the opsets the
 * members use. Member names must be distinct and match MEMBER_NAME_PATTERN.
 */
export function toOnnxEnsemble(members: readonly EnsembleMember[], opts: ToOnnxOptions): Uint8Array {
  checkMemberNames(members.map((m) => m.name));
  const converters = members.map((m) => converterFor(m.model));
  const width = opts.featureNames.length;
  members.forEach((m, j) => {
    const memberWidth = converters[j].inputWidth(m.model);
    if (memberWidth !== width) throw new RangeError(`member '${m.name}' reads ${memberWidth} features, the ensemble has ${width} feature names`);
  });
  checkOptions(width, opts);
  const { featureNames, metadata = {} } = opts;
  const body = combineMembers(
    members.map((m, j) => ({ name: m.name, body: converters[j].convert(m.model, INPUT_NAME, OUTPUT_NAME), output: OUTPUT_NAME })),
    INPUT_NAME,
    OUTPUT_NAME,
  );
  return encodeModel(
    body,
    width,
    ENSEMBLE_FAMILY,
    {
      [METADATA_KEYS.featureNames]: JSON.stringify(featureNames),
      [METADATA_KEYS.outputNames]: JSON.stringify(members.map((m) => m.name)),
      [METADATA_KEYS.memberFamilies]: JSON.stringify(converters.map((c) => c.family)),
      [METADATA_KEYS.producer]: PRODUCER_NAME,
      [METADATA_KEYS.family]: ENSEMBLE_FAMILY,
      ...metadata,
    },
    { outputWidth: members.length, opsets: 'used' },
  );
}
