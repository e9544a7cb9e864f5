/**
 * The batch dashboard's build: vanilla TypeScript, bundled into dist/dashboard, which the gateway
 * serves at /dashboard/ (gateway/dashboard/index.ts). Run from the repository root by `npm run build`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the page works at /dashboard/ and behind a path prefix.
  base: './',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // The live accuracy panel's plots chunk (vega, vega-lite: about 800 kB) is loaded only when
    // the panel opens; the page's own chunk stays small.
    chunkSizeWarningLimit: 1000,
  },
});
