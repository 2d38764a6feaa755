/**
 * GET /v2/openapi.json: the OpenAPI document (lib/openapi/). Deployed, it is
 * a file the build wrote next to this bundle (infra/bundling.ts), so the
 * function carries no schema code at all; run from source (`npm start`) it is
 * generated on the first request.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { problemResponse } from '../lib/http/problem';
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';
import { OPENAPI_FILE } from '../lib/openapi/assets';

const bundledDocument = new URL(`./${OPENAPI_FILE}`, import.meta.url);
/** Computed, not a literal, so that esbuild leaves the generator, and every handler it imports, out of this bundle. */
const generatorModule = new URL('../lib/openapi/generate.ts', import.meta.url).href;

let document: Promise<string> | undefined;

async function loadDocument(): Promise<string> {
  try {
    // node:fs/promises is loaded here, not at import: on Node 22 importing it costs ~0.9 ms, half this function's cold start.
    const { readFile } = await import('node:fs/promises');
    return await readFile(bundledDocument, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { generateDocument } = (await import(generatorModule)) as typeof import('../lib/openapi/generate');
    const { document, problems } = await generateDocument();
    for (const problem of problems) console.warn(`[openapi] ${problem}`);
    return JSON.stringify(document);
  }
}

async function serve(event: APIGatewayProxyEventV2): Promise<HttpResponse> {
  try {
    document ??= loadDocument();
    return {
      statusCode: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'public, max-age=300' },
      body: await document,
    };
  } catch (error) {
    document = undefined;
    console.error('The OpenAPI document cannot be loaded', error);
    return problemResponse('internal', 'An unexpected error occurred.', { request_id: event.requestContext?.requestId ?? 'unknown' });
  }
}

export const handler = routeHandler('openapi', serve);
