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

export interface ConsoleFile {
  text: string;
  /** Base64 of the gzipped bytes, for a client that accepts gzip. */
  gzipped: string;
}

/**
 * Reads one built file: next to the bundle (`bundleUrl`: the function's `import.meta.url`), else from the checkout;
 * undefined when neither has it.
 */
export async function readConsoleFile(bundleUrl: string, name: string): Promise<ConsoleFile | undefined> {
  // Loaded here, not at import: node:fs/promises and zlib cost a cold start more than this whole module.
  const { readFile } = await import('node:fs/promises');
  const candidates = [new URL(`./${CONSOLE_BUNDLE_DIR}/${name}`, bundleUrl), new URL(`../${CONSOLE_SOURCE_DIR}/${name}`, bundleUrl)];
  for (const candidate of candidates) {
    try {
      const bytes = await readFile(candidate);
      const { gzipSync } = await import('node:zlib');
      return { text: bytes.toString('utf8'), gzipped: gzipSync(bytes, { level: 9 }).toString('base64') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

/** Whether the request's Accept-Encoding takes gzip. */
export function acceptsGzip(headers: Record<string, string | undefined> | undefined): boolean {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? '';
  return /\bgzip\b/i.test(value);
}
