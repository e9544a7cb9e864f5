import { HistGradientBoostingRegressor, type HistGradientBoostingState } from '../../trainers/hist-gradient-boosting';
import { NotFittedError } from '../../trainers/validation';
import { treeEnsembleNode } from '../tree-ensemble';
import type { Converter } from './converter';

function state(model: HistGradientBoostingRegressor): HistGradientBoostingState {
  if (!model.fitted_) throw new NotFittedError('HistGradientBoostingRegressor');
  return model.fitted_;
}

/** Boosting sums its trees on top of the baseline. */
export const histGradientBoostingConverter: Converter<HistGradientBoostingRegressor> = {
  family: 'hist_gradient_boosting',
  accepts: (model): model is HistGradientBoostingRegressor => model instanceof HistGradientBoostingRegressor,
  inputWidth: (model) => state(model).nFeaturesIn,
  convert(model, input, output) {
    const { trees, baseline } = state(model);
    return { nodes: [treeEnsembleNode(trees, 'SUM', baseline, input, output)], initializers: [] };
  },
};
