/**
 * GET /docs/redoc.standalone.js: the script of the docs page, Redoc's
 * standalone bundle (about 1.1 MB, 0.3 MB gzipped). Deployed, the build copies
 * it next to this bundle (infra/bundling.ts), so it is read from disk on the
 * first request rather than loaded as code at every cold start; run from
 * source it comes straight from node_modules.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { problemResponse } from '../lib/http/problem';
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';
import { acceptsGzip, readStaticFile, type StaticFile } from '../lib/http/static-file';
import { RENDERER_FILE, RENDERER_SOURCE } from '../lib/openapi/assets';

const CANDIDATES = [new URL(`./${RENDERER_FILE}`, import.meta.url), new URL(`../${RENDERER_SOURCE}`, import.meta.url)];

let script: Promise<StaticFile> | undefined;

async function loadScript(): Promise<StaticFile> {
  const found = await readStaticFile(CANDIDATES);
  if (!found) throw new Error(`${RENDERER_FILE} is neither next to the function nor in node_modules`);
  return found;
}

async function serve(event: APIGatewayProxyEventV2): Promise<HttpResponse & { isBase64Encoded?: boolean }> {
  try {
    script ??= loadScript();
    const { text, gzipped } = await script;
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
      vary: 'accept-encoding',
    };
    if (acceptsGzip(event.headers)) {
      return { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipped, isBase64Encoded: true };
    }
    return { statusCode: 200, headers, body: text };
  } catch (error) {
    script = undefined;
    console.error('The renderer cannot be loaded', error);
    return problemResponse('internal', 'An unexpected error occurred.', { request_id: event.requestContext?.requestId ?? 'unknown' });
  }
}

export const handler = routeHandler('docsRenderer', serve);
