/**
 * The fallback's route keys: loaded on the first request and not before, a
 * failed load answered like any unexpected error and tried again, and run
 * from source (no file beside it) the route table's own keys.
 */
import { describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/fallback';
import { fallbackHandler, type UnmatchedRequest } from '../../lib/http/fallback';
import type { RouteKey } from '../../lib/routes';

const request = (method: string, path: string): UnmatchedRequest => ({
  rawPath: path,
  requestContext: { requestId: 'r1', http: { method, path } },
});
const KEYS: RouteKey[] = ['GET /v2/things', 'HEAD /v2/things', 'POST /v2/things'];

describe('fallback handler', () => {
  it('loads the route keys on the first request only', async () => {
    const load = vi.fn(() => KEYS);
    const fallback = fallbackHandler(load);
    expect(load).not.toHaveBeenCalled();
    const first = await fallback(request('DELETE', '/v2/things'));
    const second = await fallback(request('GET', '/v2/other'));
    expect([first.statusCode, first.headers.allow, second.statusCode]).toEqual([405, 'GET, HEAD, POST', 404]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers 500 while the route keys cannot be loaded, and loads them again on the next request', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('no file')).mockResolvedValue(KEYS);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const fallback = fallbackHandler(load);
      const failed = await fallback(request('DELETE', '/v2/things'));
      expect([failed.statusCode, JSON.parse(failed.body!)]).toEqual([
        500,
        expect.objectContaining({ type: '/problems/internal', request_id: 'r1' }),
      ]);
      const scim = await fallbackHandler(() => Promise.reject(new Error('no file')))(request('GET', '/scim/v2/Nothing'));
      expect([scim.statusCode, scim.headers['content-type'], JSON.parse(scim.body!).status]).toEqual([500, 'application/scim+json', '500']);
      expect((await fallback(request('DELETE', '/v2/things'))).statusCode).toBe(405);
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      errors.mockRestore();
    }
  });

  it('run from source, answers from the route table', async () => {
    const response = await handler(request('DELETE', '/v2/health'));
    expect([response.statusCode, response.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect((await handler(request('GET', '/v2/nothing-here'))).statusCode).toBe(404);
  });
});
