/**
 * A PDF report rendered on a worker thread (./render-pool.ts): pdfkit lays out and compresses a
 * report in about 50 ms of CPU, which on the event loop held every organisation's valuations
 * (issue 33, finding 4). Takes the report's plain data, as the renderers do; gives the bytes.
 */
import { Piscina } from 'piscina';
import { renderPdf, type PdfTask } from './pdf-task';

async function run(task: PdfTask): Promise<unknown> {
  const pdf = await renderPdf(task);
  // The bytes are moved to the caller's thread, not copied.
  const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  return Piscina.move(pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? bytes : bytes.slice());
}

export = run;
