import { RidgeRegression, type RidgeState } from '../../trainers/ridge';
import { NotFittedError } from '../../trainers/validation';
import { ML_DOMAIN, attr, floatTensor, node } from '../builder';
import type { Converter } from './converter';

function state(model: RidgeRegression): RidgeState {
  if (!model.fitted_) throw new NotFittedError('RidgeRegression');
  return model.fitted_;
}

/** Imputer (NaN -> training mean) then Gemm with the standardisation already folded into coef and intercept. */
export const ridgeConverter: Converter<RidgeRegression> = {
  family: 'ridge',
  accepts: (model): model is RidgeRegression => model instanceof RidgeRegression,
  inputWidth: (model) => state(model).nFeaturesIn,
  convert(model, input, output) {
    const { mean, coef, intercept, nFeaturesIn } = state(model);
    return {
      nodes: [
        node('Imputer', [input], ['imputed'], [attr.floats('imputed_value_floats', mean), attr.float('replaced_value_float', NaN)], ML_DOMAIN),
        node('Gemm', ['imputed', 'coef', 'intercept'], [output], []),
      ],
      initializers: [floatTensor('coef', [nFeaturesIn, 1], coef), floatTensor('intercept', [1], [intercept])],
    };
  },
};
