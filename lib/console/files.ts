/**
 * The console's built files (console/, built by Vite). Deployed, the build
 * copies them next to each console function's bundle (infra/bundling.ts); run
 * from source they are read from console/dist. Either way they are read on
 * first use, not loaded as code at every cold start.
 */

/** The directory, next to a console function's bundle, that holds the built page and its assets. */
export const CONSOLE_BUNDLE_DIR = 'console';
/** Where `vite build` writes them in the checkout. */
export const CONSOLE_SOURCE_DIR = 'console/dist';
/** The page itself; every other file is an asset named by its content hash. */
export const CONSOLE_PAGE_FILE = 'index.html';

/** An asset's name as the page links it: Vite's `<name>-<hash>.<ext>`, never a path. */
export const CONSOLE_ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
};

/** The content type of an asset the console may serve, or undefined for a name it never serves. */
export function assetContentType(name: string): string | undefined {
  if (!CONSOLE_ASSET_NAME.test(name) || name === CONSOLE_PAGE_FILE) return undefined;
  return CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
}

/** Where a built file is: next to the bundle (`bundleUrl`: the function's `import.meta.url`), else in the checkout. */
export const consoleFileCandidates = (bundleUrl: string, name: string) => [
  new URL(`./${CONSOLE_BUNDLE_DIR}/${name}`, bundleUrl),
  new URL(`../${CONSOLE_SOURCE_DIR}/${name}`, bundleUrl),
];
