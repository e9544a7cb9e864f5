/**
 * The text of PDFs as a reader's viewer gets it: pdf-parse (Mozilla's pdf.js) run in a child Node
 * process. Not in the test itself: pdf.js loads its worker with a dynamic import(), which Jest's VM
 * sandbox refuses without --experimental-vm-modules. One child reads a whole batch.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface PdfText {
  text: string;
  pages: number;
}

const READER = `
const { readFileSync } = require('node:fs');
const { PDFParse } = require(process.env.PDF_PARSE);
(async () => {
  const out = [];
  for (const file of process.argv.slice(1)) {
    const parser = new PDFParse({ data: new Uint8Array(readFileSync(file)) });
    try {
      const result = await parser.getText();
      out.push({ text: result.text, pages: result.total });
    } finally {
      await parser.destroy();
    }
  }
  process.stdout.write(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

export async function pdfTexts(pdfs: readonly Buffer[]): Promise<PdfText[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const files = pdfs.map((pdf, i) => {
      const file = join(dir, `${i}.pdf`);
      writeFileSync(file, pdf);
      return file;
    });
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', READER, ...files], {
      env: { ...process.env, PDF_PARSE: require.resolve('pdf-parse') },
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout) as PdfText[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
