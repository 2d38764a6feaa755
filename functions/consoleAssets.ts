/**
 * GET /console/{asset}: the console's scripts and styles, named by their
 * content hash (Vite), so a browser may keep each for a year.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { assetContentType, consoleFileCandidates } from '../lib/console/files';
import { problemResponse } from '../lib/http/problem';
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';
import { acceptsGzip, readStaticFile, type StaticFile } from '../lib/http/static-file';

const assets = new Map<string, Promise<StaticFile | undefined>>();

async function serve(event: APIGatewayProxyEventV2): Promise<HttpResponse & { isBase64Encoded?: boolean }> {
  const name = event.pathParameters?.asset ?? '';
  const contentType = assetContentType(name);
  const notFound = () => problemResponse('not-found', `The console has no file ${JSON.stringify(name)}.`);
  if (!contentType) return notFound();
  try {
    if (!assets.has(name)) assets.set(name, readStaticFile(consoleFileCandidates(import.meta.url, name)));
    const file = await assets.get(name)!;
    if (!file) return notFound();
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': contentType,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
    };
    if (acceptsGzip(event.headers))
      return { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: file.gzipped, isBase64Encoded: true };
    return { statusCode: 200, headers, body: file.text };
  } catch (error) {
    assets.delete(name);
    console.error('A console asset cannot be loaded', error);
    return problemResponse('internal', 'An unexpected error occurred.', { request_id: event.requestContext?.requestId ?? 'unknown' });
  }
}

export const handler = routeHandler('consoleAssets', serve);
