/**
 * The console's build: one page (index.html) and its hashed script and style,
 * flat in dist/ because the service serves them as `/console/<file>`
 * (functions/consoleAssets.ts) next to the page at `/console`.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  // Relative links: the page at `{base}/console` loads `console/<file>`, so it also works behind a path prefix.
  base: './',
  experimental: {
    renderBuiltUrl: (file, { hostType }) => (hostType === 'html' ? `console/${file}` : { relative: true }),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: '',
    // No inline polyfill script: the page's CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
