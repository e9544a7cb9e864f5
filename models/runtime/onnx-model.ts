import { readFile } from 'node:fs/promises';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { CoalescedRuns } from './coalesced-runs';
import { INPUT_NAME, METADATA_KEYS, OUTPUT_NAME } from './model-contract';
import { readModelMetadata } from './onnx-metadata';

/**
 * Session options for a latency-sensitive server on 2 cores: one thread per session (parallelism comes
 * from concurrent requests, and the event loop keeps a core), full graph optimisation, and no memory
 * pattern, whose cached allocation plan is keyed to one input shape while our batch size varies.
 */
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableMemPattern: false,
};

/**
 * A loaded .onnx valuation model that follows the model contract (float32 [N, F] in, [N, 1] out; an
 * ensemble file has [N, M] out, one column per member, named by outputNames).
 */
export class OnnxModel {
  /** Runs asked for together go as one session call (./coalesced-runs.ts). */
  private readonly runs: CoalescedRuns;

  private constructor(
    private readonly session: InferenceSession,
    /** Number of features per row the model expects. */
    readonly inputWidth: number,
    readonly producerName: string,
    readonly metadata: Readonly<Record<string, string>>,
    readonly featureNames: readonly string[],
    /** Number of output columns per row: 1 for a single model, M for an ensemble of M members. */
    readonly outputWidth: number,
    /** The output columns' names from metadata output_names (an ensemble's members); [] when absent. */
    readonly outputNames: readonly string[],
  ) {
    this.runs = new CoalescedRuns(
      async (features, rows) => (await this.session.run({ [INPUT_NAME]: new Tensor('float32', features, [rows, this.inputWidth]) }))[OUTPUT_NAME].data as Float32Array,
      inputWidth,
      outputWidth,
    );
  }

  /** Loads from a file path or from the .onnx bytes, and checks the model contract. */
  static async load(source: string | Uint8Array): Promise<OnnxModel> {
    const bytes = typeof source === 'string' ? await readFile(source) : source;
    const { producerName, props } = readModelMetadata(bytes);
    const session = await InferenceSession.create(bytes, SESSION_OPTIONS);
    try {
      const inputWidth = OnnxModel.checkContract(session);
      const namesJson = props[METADATA_KEYS.featureNames];
      const featureNames: string[] = namesJson === undefined ? [] : JSON.parse(namesJson);
      if (namesJson !== undefined && (!Array.isArray(featureNames) || featureNames.length !== inputWidth)) {
        throw new Error(`metadata ${METADATA_KEYS.featureNames} does not list ${inputWidth} names`);
      }
      const { outputWidth, outputNames } = OnnxModel.checkOutput(session, props[METADATA_KEYS.outputNames]);
      return new OnnxModel(
        session,
        inputWidth,
        producerName,
        Object.freeze({ ...props }),
        Object.freeze(featureNames),
        outputWidth,
        Object.freeze(outputNames),
      );
    } catch (err) {
      await session.release();
      throw err;
    }
  }

  /** The model's input width, after checking the input and output names, types and shapes. */
  private static checkContract(session: InferenceSession): number {
    const input = session.inputMetadata.find((m) => m.name === INPUT_NAME);
    const output = session.outputMetadata.find((m) => m.name === OUTPUT_NAME);
    if (session.inputNames.length !== 1 || !input?.isTensor || input.type !== 'float32') {
      throw new Error(`model must have exactly one float32 input named '${INPUT_NAME}'`);
    }
    if (!output?.isTensor || output.type !== 'float32') throw new Error(`model must have a float32 output named '${OUTPUT_NAME}'`);
    const width = input.shape[1];
    if (input.shape.length !== 2 || typeof width !== 'number' || width < 1) {
      throw new Error(`input '${INPUT_NAME}' must have shape [N, F] with a fixed F, got [${input.shape.join(', ')}]`);
    }
    return width;
  }

  /**
   * The output's width and column names: output shape [N, M] with M >= 1 fixed, or with M symbolic when
   * metadata output_names gives it; output_names, when present, must list M distinct strings.
   */
  private static checkOutput(session: InferenceSession, namesJson: string | undefined): { outputWidth: number; outputNames: string[] } {
    const output = session.outputMetadata.find((m) => m.name === OUTPUT_NAME);
    const shape = output?.isTensor ? output.shape : [];
    const names: unknown = namesJson === undefined ? undefined : JSON.parse(namesJson);
    if (names !== undefined && (!Array.isArray(names) || names.length < 1 || names.some((n) => typeof n !== 'string') || new Set(names).size !== names.length)) {
      throw new Error(`metadata ${METADATA_KEYS.outputNames} must be a JSON array of distinct strings`);
    }
    const outputNames = (names ?? []) as string[];
    // files written before ensembles always declare [N, 1]; a missing shape (hand-made files) reads as one column
    if (shape.length === 0) return { outputWidth: outputNames.length || 1, outputNames };
    const declared = shape[1];
    if (shape.length !== 2 || (typeof declared === 'number' && declared < 1)) {
      throw new Error(`output '${OUTPUT_NAME}' must have shape [N, M] with M >= 1, got [${shape.join(', ')}]`);
    }
    const outputWidth = typeof declared === 'number' ? declared : outputNames.length;
    if (outputWidth < 1) throw new Error(`output '${OUTPUT_NAME}' has shape [${shape.join(', ')}] and no ${METADATA_KEYS.outputNames} to fix its width`);
    if (names !== undefined && outputNames.length !== outputWidth) {
      throw new Error(`metadata ${METADATA_KEYS.outputNames} lists ${outputNames.length} names for ${outputWidth} output columns`);
    }
    return { outputWidth, outputNames };
  }

  /** Predictions for `rows` rows laid out row-major in `features` (NaN = missing); runs asked for together share one session call. */
  async run(features: Float32Array, rows: number): Promise<Float32Array> {
    if (!Number.isInteger(rows) || rows < 1) throw new RangeError(`rows must be a positive integer, got ${rows}`);
    if (features.length !== rows * this.inputWidth) {
      throw new RangeError(`features has ${features.length} values, ${rows} rows of ${this.inputWidth} need ${rows * this.inputWidth}`);
    }
    return this.runs.run(features, rows);
  }

  /**
   * The same predictions as run(), one Float32Array of `rows` values per output column (column j is
   * outputNames[j]'s when the file names its columns), still from one session call.
   */
  async runColumns(features: Float32Array, rows: number): Promise<Float32Array[]> {
    const out = await this.run(features, rows);
    const width = this.outputWidth;
    if (out.length !== rows * width) throw new Error(`model returned ${out.length} values for ${rows} rows of ${width} columns`);
    if (width === 1) return [out];
    return Array.from({ length: width }, (_, j) => {
      const column = new Float32Array(rows);
      for (let r = 0; r < rows; r++) column[r] = out[r * width + j];
      return column;
    });
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
