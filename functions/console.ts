/**
 * GET /console: the admin console's page (console/, lib/console/). The page
 * itself needs no token: it signs the person in, then calls the API as any
 * client does.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { consoleSignIn } from '../lib/config';
import { CONSOLE_PAGE_FILE, consoleFileCandidates } from '../lib/console/files';
import { consoleContentSecurityPolicy, renderConsolePage } from '../lib/console/page';
import { problemResponse } from '../lib/http/problem';
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';
import { acceptsGzip, readStaticFile, type StaticFile } from '../lib/http/static-file';

let page: Promise<StaticFile & { policy: string }> | undefined;

async function loadPage(): Promise<StaticFile & { policy: string }> {
  const signIn = consoleSignIn();
  const page = await readStaticFile(consoleFileCandidates(import.meta.url, CONSOLE_PAGE_FILE), (built) => renderConsolePage(built, signIn));
  if (!page) throw new Error(`No ${CONSOLE_PAGE_FILE}`);
  return { ...page, policy: consoleContentSecurityPolicy(signIn) };
}

async function serve(event: APIGatewayProxyEventV2): Promise<HttpResponse & { isBase64Encoded?: boolean }> {
  try {
    page ??= loadPage();
    const { text, gzipped, policy } = await page;
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      // The fragment (where `npm start`'s link carries the token) is never sent; nothing else may leak the page's address.
      'referrer-policy': 'no-referrer',
      vary: 'accept-encoding',
    };
    if (acceptsGzip(event.headers))
      return { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipped, isBase64Encoded: true };
    return { statusCode: 200, headers, body: text };
  } catch (error) {
    page = undefined;
    console.error('The console page cannot be loaded', error);
    return problemResponse('internal', 'An unexpected error occurred.', { request_id: event.requestContext?.requestId ?? 'unknown' });
  }
}

export const handler = routeHandler('console', serve);
