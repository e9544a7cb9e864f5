import type { GraphBody } from '../builder';

/** Turns one fitted model family into an ONNX graph body reading `input` [N, F] and writing `output` [N, 1]. */
export interface Converter<Model> {
  /** Recorded in metadata_props as model_family. */
  readonly family: string;
  accepts(model: unknown): model is Model;
  /** Throws if the model is not fitted. */
  inputWidth(model: Model): number;
  convert(model: Model, input: string, output: string): GraphBody;
}
