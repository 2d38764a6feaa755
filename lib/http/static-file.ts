/**
 * A file a public route serves as it is (the docs page's renderer, the console's page and assets): read on first
 * use from the first place that has it (beside the function's bundle, where its bundling puts it, or where the
 * checkout keeps it), with its gzipped bytes for a client that accepts them.
 */

export interface StaticFile {
  text: string;
  /** Base64 of the gzipped bytes, for a client that accepts gzip. */
  gzipped: string;
}

/** The first of `candidates` that exists, as `render` makes it (by default as it is); undefined when none does. */
export async function readStaticFile(candidates: readonly URL[], render?: (text: string) => string): Promise<StaticFile | undefined> {
  // node:fs/promises and zlib are loaded here, not at import: on Node 22 importing fs/promises costs ~0.9 ms, half
  // such a function's cold start; zlib was a third of it.
  const { readFile } = await import('node:fs/promises');
  for (const candidate of candidates) {
    try {
      const bytes = await readFile(candidate);
      // Rendered, the text is what is served and gzipped (once); else the bytes as they are.
      const served = render ? Buffer.from(render(bytes.toString('utf8')), 'utf8') : bytes;
      const { gzipSync } = await import('node:zlib');
      return { text: served.toString('utf8'), gzipped: gzipSync(served, { level: 9 }).toString('base64') };
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
