/**
 * The batch dashboard's build: vanilla TypeScript, bundled into dist/dashboard, which the gateway
 * serves at /dashboard/ (gateway/dashboard/index.ts). Run from the repository root by `npm run build`,
 * after tsc: the district outlines come from the compiled gateway/dashboard/outlines.ts.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

type OutlinesModule = typeof import('../outlines');

/**
 * dist/dashboard/district-outlines.json: the 12 district outlines the portfolio map draws (built by
 * gateway/dashboard/outlines.ts from data/geo/tashkent_districts.geojson), a static file of the page.
 */
function districtOutlines(): Plugin {
  return {
    name: 'district-outlines',
    apply: 'build',
    generateBundle() {
      const compiled = fileURLToPath(new URL('../../../dist/gateway/dashboard/outlines.js', import.meta.url));
      let outlines: OutlinesModule;
      try {
        outlines = createRequire(import.meta.url)(compiled) as OutlinesModule;
      } catch (error) {
        throw new Error(`${compiled} is missing: run tsc -p tsconfig.json before vite build (npm run build does) (${(error as Error).message})`);
      }
      this.emitFile({ type: 'asset', fileName: outlines.DISTRICT_OUTLINES_FILE, source: JSON.stringify(outlines.districtOutlines()) });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the page works at /dashboard/ and behind a path prefix.
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [districtOutlines()],
  build: {
    outDir: fileURLToPath(new URL('../../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // The plots chunk (vega, vega-lite: about 800 kB) is loaded only when the live accuracy panel or
    // a portfolio view first draws; the page's own chunk stays small.
    chunkSizeWarningLimit: 1000,
  },
});
