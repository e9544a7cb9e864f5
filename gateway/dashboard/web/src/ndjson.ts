/**
 * NDJSON read as it arrives: a response body decoded chunk by chunk and cut into lines, each parsed
 * and handed on before the next chunk is read, so a job of a million results never sits in memory
 * as text. The reader hands the browser back its main thread every YIELD_EVERY_MS, even when the
 * body is already buffered (a reply read from cache arrives in big chunks).
 */
import { ApiError } from './api';

/** Longest stretch of parsing between two chances for the page to paint and handle input. */
const YIELD_EVERY_MS = 40;

/** Lets the browser run its event loop (paint, input) before going on. */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Reads `body` to its end, calling `onValue` with each line's JSON (blank lines skipped) and
 * `onProgress` after each chunk and before each pause. A line that is not JSON rejects with an ApiError naming it.
 * Aborting the fetch that gave the body rejects with its AbortError.
 */
export async function readNdjson<T>(body: ReadableStream<Uint8Array>, onValue: (value: T) => void, onProgress?: () => void): Promise<number> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  let lines = 0;
  let lastYield = performance.now();

  const take = (line: string) => {
    lines++;
    if (line.trim() === '') return;
    let value: T;
    try {
      value = JSON.parse(line) as T;
    } catch {
      throw new ApiError('INVALID_RESULTS', `Line ${lines} of the results is not JSON`);
    }
    onValue(value);
  };

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = rest + decoder.decode(value, { stream: true });
      let start = 0;
      for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
        take(text.slice(start, newline));
        start = newline + 1;
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          onProgress?.();
          await yieldToBrowser();
          lastYield = performance.now();
        }
      }
      rest = text.slice(start);
      onProgress?.();
    }
    rest += decoder.decode();
    if (rest !== '') take(rest);
  } catch (error) {
    await reader.cancel().catch(() => undefined); // stops the download too
    throw error;
  } finally {
    reader.releaseLock();
  }
  return lines;
}
