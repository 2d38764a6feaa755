/**
 * GET /v2/health. A plain handler rather than an `operation()`: it touches no
 * AWS service, so its bundle (and cold start) carries none of their clients.
 */
import { routeHandler, SECURITY_HEADERS, type HttpResponse } from '../lib/http/response';

const serve = async (): Promise<HttpResponse> => ({
  statusCode: 200,
  headers: { ...SECURITY_HEADERS, 'content-type': 'application/json' },
  body: JSON.stringify({ status: 'ok' }),
});

export const handler = routeHandler('health', serve);
