/**
 * GET /docs: a page that renders the OpenAPI document with Redoc. The page
 * and its script come from this service (no CDN): the script is served by
 * the docsRenderer function. Both URLs are relative, so the page also works
 * behind a path prefix.
 */
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';
import { RENDERER_FILE } from '../lib/openapi/assets';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Department and group administration API</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <redoc spec-url="v2/openapi.json" hide-download-button="false"></redoc>
    <script src="docs/${RENDERER_FILE}"></script>
  </body>
</html>
`;

/**
 * Redoc injects its styles and runs its search index in a worker made from a
 * blob. Nothing may come from elsewhere: the one remote file Redoc asks for,
 * the Redocly logo of its menu, is refused, and Redoc then leaves it out.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  'worker-src blob:',
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

async function serve(): Promise<HttpResponse> {
  return {
    statusCode: 200,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    },
    body: PAGE,
  };
}

export const handler = routeHandler('docs', serve);
