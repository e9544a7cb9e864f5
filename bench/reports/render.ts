/**
 * Report rendering speed: the median of 20 renders of the Chilanzar flat (every section, the
 * district outline) and the Cobalt, PDF and HTML, in each language, after warm-up renders (the
 * first PDF reads the fonts, ~3 MB). Also the size and page count of each PDF.
 * Run: npm run build && node dist/bench/reports/render.js
 */
import { performance } from 'node:perf_hooks';
import { renderReportHtml, renderReportPdf, REPORT_LANGUAGES, type ValuationReportData } from '../../gateway/reports';
import { chilanzarFlat, cobaltCar } from '../../test/reports/fixtures';

const RUNS = 20;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
}

/** Pages of a pdfkit PDF: its page tree's /Count (pdfkit writes one, uncompressed). */
function pageCount(pdf: Buffer): number {
  return Number(/\/Type \/Pages\s*\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1] ?? NaN);
}

async function time<T>(run: () => T | Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
}

async function main(): Promise<void> {
  const cases: [string, ValuationReportData][] = [['Chilanzar flat', chilanzarFlat()], ['Cobalt', cobaltCar()]];
  for (let i = 0; i < 3; i++) await renderReportPdf(cases[0][1], 'en');
  console.log(`report rendering, median of ${RUNS} (Node ${process.version})`);
  console.log('case            lang   PDF ms   HTML ms   PDF KB  pages');
  for (const [name, data] of cases) {
    for (const lang of REPORT_LANGUAGES) {
      const pdfTimes: number[] = [];
      const htmlTimes: number[] = [];
      let pdf: Buffer = Buffer.alloc(0);
      for (let i = 0; i < RUNS; i++) {
        const p = await time(() => renderReportPdf(data, lang));
        pdfTimes.push(p.ms);
        pdf = p.result;
        htmlTimes.push((await time(() => renderReportHtml(data, lang))).ms);
      }
      console.log(
        `${name.padEnd(16)}${lang.padEnd(5)}${median(pdfTimes).toFixed(1).padStart(8)}${median(htmlTimes).toFixed(2).padStart(10)}` +
          `${(pdf.length / 1024).toFixed(1).padStart(9)}${String(pageCount(pdf)).padStart(7)}`,
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
