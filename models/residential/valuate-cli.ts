/**
 * `npm run valuate -- --input requests.jsonl --output out.jsonl`: values a file of API-format
 * requests (one JSON object per line, the fields of POST /api/predict/home) through the runtime
 * the service uses, and writes one result per line in input order: the API's reply, or the API's
 * error object for a line that fails validation (the run goes on). Lines are read and valued in
 * chunks, so memory stays flat whatever the file's size.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { ApiError } from '../../schema/errors';
import { parseHomeRestBody, toHomeRestResponse } from '../../schema/home-rest';
import { normaliseHomeInput, type HomeInput, type NormalisedHomeInput } from './request';
import { ResidentialModelService } from './serving';
import type { ResidentialRuntime } from './valuation';

/** Lines valued per runtime call. @default 1000 (one vectorised ONNX call per member) */
const CHUNK = 1000;

export interface ValuateSummary {
  lines: number;
  valued: number;
  failed: number;
}

export async function valuateFile(inputPath: string, outputPath: string, runtime: ResidentialRuntime): Promise<ValuateSummary> {
  const output = createWriteStream(outputPath);
  const summary: ValuateSummary = { lines: 0, valued: 0, failed: 0 };
  let chunk: string[] = [];
  const flush = async () => {
    const text = await valuateChunk(chunk, runtime, summary);
    chunk = [];
    if (!output.write(text)) await once(output, 'drain');
  };
  for await (const line of createInterface({ input: createReadStream(inputPath), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    chunk.push(line);
    if (chunk.length === CHUNK) await flush();
  }
  if (chunk.length) await flush();
  output.end();
  await once(output, 'finish');
  return summary;
}

async function valuateChunk(lines: readonly string[], runtime: ResidentialRuntime, summary: ValuateSummary): Promise<string> {
  const results: unknown[] = new Array(lines.length);
  const valid: { index: number; parsed: NormalisedHomeInput; restWarnings: string[] }[] = [];
  lines.forEach((line, index) => {
    summary.lines++;
    try {
      let body: unknown;
      try {
        body = JSON.parse(line);
      } catch {
        throw new ApiError('INVALID_JSON', 'The line is not valid JSON');
      }
      const { input, warnings } = parseHomeRestBody(body);
      valid.push({ index, parsed: normaliseHomeInput(input as unknown as HomeInput), restWarnings: warnings });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      summary.failed++;
      results[index] = { error: error.toBody() };
    }
  });
  const values = await runtime.value(valid.map((v) => v.parsed.request));
  const valuedAt = new Date().toISOString();
  valid.forEach((v, i) => {
    summary.valued++;
    results[v.index] = toHomeRestResponse({ ...values[i], location: v.parsed.location, valuedAt, warnings: v.parsed.warnings }, v.restWarnings);
  });
  return results.map((r) => `${JSON.stringify(r)}\n`).join('');
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const input = arg('input');
  const output = arg('output');
  if (!input || !output) {
    console.error('usage: npm run valuate -- --input requests.jsonl --output out.jsonl');
    process.exit(2);
  }
  const runtime = await ResidentialModelService.start({ pollMs: 60_000 });
  const started = Date.now();
  const version = runtime.version;
  const summary = await valuateFile(input, output, runtime);
  await runtime.close();
  console.log(`${summary.lines} lines: ${summary.valued} valued, ${summary.failed} with errors, model ${version}, ${((Date.now() - started) / 1000).toFixed(1)} s → ${output}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
