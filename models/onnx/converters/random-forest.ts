import { RandomForestRegressor, type RandomForestState } from '../../trainers/random-forest';
import { NotFittedError } from '../../trainers/validation';
import { treeEnsembleNode } from '../tree-ensemble';
import type { Converter } from './converter';

function state(model: RandomForestRegressor): RandomForestState {
  if (!model.fitted_) throw new NotFittedError('RandomForestRegressor');
  return model.fitted_;
}

/** A forest averages its trees, whose leaves already hold mean targets. */
export const randomForestConverter: Converter<RandomForestRegressor> = {
  family: 'random_forest',
  accepts: (model): model is RandomForestRegressor => model instanceof RandomForestRegressor,
  inputWidth: (model) => state(model).nFeaturesIn,
  convert(model, input, output) {
    return { nodes: [treeEnsembleNode(state(model).trees, 'AVERAGE', 0, input, output)], initializers: [] };
  },
};
