import { DISTANCE_EPSILON, NearestComparablesRegressor, type NearestComparablesState } from '../../trainers/nearest-comparables';
import { NotFittedError } from '../../trainers/validation';
import { attr, floatTensor, node, type Node, type Tensor } from '../builder';
import type { Converter } from './converter';

function state(model: NearestComparablesRegressor): NearestComparablesState {
  if (!model.fitted_) throw new NotFittedError('NearestComparablesRegressor');
  return model.fitted_;
}

/** A 1-D int64 constant (TopK's k, the axes of ReduceSum-13 and Unsqueeze-13 are inputs, not attributes). */
const ints = (name: string, values: number[]): Node => node('Constant', [], [name], [attr.ints('value_ints', values)]);

/**
 * Standardise (Sub, Div, Mul by the feature weights, NaN -> 0), rank the stored comparables by
 * ||t||²/2 - x·t (one MatMul with the comparables transposed; ||x||² is the same for every comparable of
 * a row, so leaving it out changes no ranking and adds no rounding), TopK(k, smallest, sorted; ties to the
 * lower index), gather the neighbours' targets and average them. Distance weights use distances summed
 * from the gathered neighbours' differences rather than the expanded formula, whose cancellation would
 * turn an exact duplicate's distance 0 into rounding noise.
 */
export const nearestComparablesConverter: Converter<NearestComparablesRegressor> = {
  family: 'nearest_comparables',
  accepts: (model): model is NearestComparablesRegressor => model instanceof NearestComparablesRegressor,
  inputWidth: (model) => state(model).nFeaturesIn,
  convert(model, input, output) {
    const { nFeaturesIn: F, k, weighting, mean, scale, featureWeights, points, halfSquaredNorm, y, sampleWeight } = state(model);
    const M = halfSquaredNorm.length;
    const transposed = new Float32Array(F * M);
    for (let m = 0; m < M; m++) for (let j = 0; j < F; j++) transposed[j * M + m] = points[m * F + j];

    const nodes: Node[] = [
      node('Sub', [input, 'mean'], ['centred'], []),
      node('Div', ['centred', 'scale'], ['standardised'], []),
      node('Mul', ['standardised', 'feature_weights'], ['weighted'], []),
      node('IsNaN', ['weighted'], ['missing'], []),
      node('Where', ['missing', 'zero', 'weighted'], ['query'], []),
      node('MatMul', ['query', 'comparables_t'], ['dot'], []),
      node('Sub', ['half_squared_norm', 'dot'], ['rank_key'], []),
      ints('k', [k]),
      node('TopK', ['rank_key', 'k'], ['nearest_key', 'neighbours'], [attr.int('axis', 1), attr.int('largest', 0), attr.int('sorted', 1)]),
      node('Gather', ['target', 'neighbours'], ['neighbour_target'], [attr.int('axis', 0)]),
    ];
    const initializers: Tensor[] = [
      floatTensor('mean', [F], mean),
      floatTensor('scale', [F], scale),
      floatTensor('feature_weights', [F], featureWeights),
      floatTensor('zero', [], [0]),
      floatTensor('comparables_t', [F, M], transposed),
      floatTensor('half_squared_norm', [M], halfSquaredNorm),
      floatTensor('target', [M], y),
    ];

    // votes [N, k], or none when every neighbour counts the same
    let votes: string | null = null;
    if (weighting === 'distance') {
      nodes.push(
        // [F, M] gathered along M gives [F, N, k]; the query as [F, N, 1] broadcasts against it
        node('Gather', ['comparables_t', 'neighbours'], ['neighbour_features'], [attr.int('axis', 1)]),
        node('Transpose', ['query'], ['query_t'], [attr.ints('perm', [1, 0])]),
        ints('axis_2', [2]),
        node('Unsqueeze', ['query_t', 'axis_2'], ['query_column'], []),
        node('Sub', ['query_column', 'neighbour_features'], ['difference'], []),
        node('Mul', ['difference', 'difference'], ['squared_difference'], []),
        ints('axis_0', [0]),
        node('ReduceSum', ['squared_difference', 'axis_0'], ['squared_distance'], [attr.int('keepdims', 0)]),
        node('Sqrt', ['squared_distance'], ['distance'], []),
        node('Add', ['distance', 'epsilon'], ['softened_distance'], []),
        // Div rather than Reciprocal: an exact IEEE quotient, as the trainer computes it
        node('Div', ['one', 'softened_distance'], ['distance_weight'], []),
      );
      initializers.push(floatTensor('epsilon', [], [DISTANCE_EPSILON]), floatTensor('one', [], [1]));
      votes = 'distance_weight';
    }
    if (sampleWeight) {
      nodes.push(node('Gather', ['sample_weight', 'neighbours'], ['neighbour_sample_weight'], [attr.int('axis', 0)]));
      initializers.push(floatTensor('sample_weight', [M], sampleWeight));
      if (votes) nodes.push(node('Mul', [votes, 'neighbour_sample_weight'], ['vote'], []));
      votes = votes ? 'vote' : 'neighbour_sample_weight';
    }

    if (votes === null) {
      // ReduceMean-13 (opset 17) still takes its axes as an attribute
      nodes.push(node('ReduceMean', ['neighbour_target'], [output], [attr.ints('axes', [1]), attr.int('keepdims', 1)]));
    } else {
      nodes.push(
        node('Mul', [votes, 'neighbour_target'], ['weighted_target'], []),
        ints('axis_1', [1]),
        node('ReduceSum', ['weighted_target', 'axis_1'], ['weighted_sum'], [attr.int('keepdims', 1)]),
        node('ReduceSum', [votes, 'axis_1'], ['total_vote'], [attr.int('keepdims', 1)]),
        node('Div', ['weighted_sum', 'total_vote'], [output], []),
      );
    }
    return { nodes, initializers };
  },
};
