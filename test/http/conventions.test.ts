/** The contract's conventions through the gateway: auth, bodies, .json forms, problem+json, headers. */
import { describe, expect, it } from 'vitest';
import { READ_TOKEN, useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

function expectProblem(response: { status: number; headers: Headers; body: any }, status: number, slug: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ type: `/problems/${slug}`, status, title: expect.any(String), detail: expect.any(String) });
}

describe('auth', () => {
  it('serves health without a token', async () => {
    const response = await api.get('/v2/health', { token: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect((await api.get('/v2/health.json', { token: null })).status).toBe(200);
  });

  it('answers 401 without a token or with a wrong one', async () => {
    expectProblem(await api.get('/v2/users', { token: null }), 401, 'unauthorized');
    expectProblem(await api.get('/v2/users', { token: 'wrong' }), 401, 'unauthorized');
    expectProblem(await api.post('/v2/departments', { name: 'X' }, { token: null }), 401, 'unauthorized');
  });

  it('answers 403 for the read-only token on a route that changes data', async () => {
    expectProblem(await api.post('/v2/users', { email: 'r@example.com', last_name: 'R' }, { token: READ_TOKEN }), 403, 'forbidden');
    expect((await api.get('/v2/departments', { token: READ_TOKEN })).status).toBe(200);
  });
});

describe('bodies', () => {
  it('answers 400 for malformed JSON', async () => {
    const response = await api.request('POST', '/v2/departments', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'validation');
    expect(response.body.errors).toEqual([{ field: 'body', message: expect.any(String) }]);
  });

  it('answers 400 for a missing body and for a JSON value of the wrong shape', async () => {
    expectProblem(await api.request('POST', '/v2/departments', { headers: { 'content-type': 'application/json' } }), 400, 'validation');
    expectProblem(await api.post('/v2/departments', ['name']), 400, 'validation');
    expectProblem(await api.post('/v2/departments', 'Engineering'), 400, 'validation');
  });

  it('answers 415 for another content type', async () => {
    const response = await api.request('POST', '/v2/departments', {
      rawBody: 'name=Eng',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(response, 415, 'unsupported-media-type');
    const noType = await api.request('POST', '/v2/departments', { rawBody: '{"name":"Eng"}' });
    expect(noType.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const response = await api.request('POST', '/v2/departments', {
      rawBody: JSON.stringify({ name: 'Charset' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });

  it('answers 413 for a body over 1 MiB, before validating it', async () => {
    const response = await api.post('/v2/departments', { name: 'x'.repeat(1024 * 1024) });
    expectProblem(response, 413, 'payload-too-large');
  });

  it('answers 400 for deeply nested JSON and for prototype keys', async () => {
    const deep = '['.repeat(40) + ']'.repeat(40);
    expectProblem(
      await api.request('POST', '/v2/departments', {
        rawBody: `{"name":"x","n":${deep}}`,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation',
    );
    const proto = await api.request('POST', '/v2/departments', {
      rawBody: '{"name":"x","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(proto, 400, 'validation');
  });
});

describe('paths', () => {
  it('answers 404 not-found for an unknown path, whatever the method and token', async () => {
    expectProblem(await api.get('/v2/nothing-here'), 404, 'not-found');
    expectProblem(await api.request('DELETE', '/v2/nothing-here', { token: null }), 404, 'not-found');
    expectProblem(await api.get('/v2/users/ada/nothing'), 404, 'not-found');
  });

  it.each([
    ['PUT', '/v2/users', 'GET, HEAD, POST'],
    ['DELETE', '/v2/users.json', 'GET, HEAD, POST'],
    ['POST', '/v2/users/ada', 'GET, HEAD, PATCH, DELETE'],
    ['PUT', '/v2/departments/exports', 'GET, HEAD, POST, PATCH, DELETE'],
    ['PUT', '/v2/groups/exports', 'GET, HEAD, POST, PATCH, DELETE'],
    ['POST', '/v2/health', 'GET, HEAD'],
    ['OPTIONS', '/departments/eng/quotas', 'GET, HEAD'],
  ])('answers 405 method-not-allowed with Allow to %s %s, before any token', async (method, path, allow) => {
    for (const token of [undefined, null]) {
      const response = await api.request(method, path, { token });
      expectProblem(response, 405, 'method-not-allowed');
      expect(response.headers.get('allow')).toBe(allow);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers HEAD wherever GET is: the same status and headers, no body', async () => {
    const department = unique('head');
    expect((await api.post('/v2/departments', { id: department, name: 'Heads' })).status).toBe(201);
    for (const [path, token] of [
      [`/v2/departments/${department}`, undefined],
      [`/v2/departments/${department}.json`, undefined],
      ['/v2/departments?count=1', undefined],
      [`/departments/${department}/quotas.json`, undefined],
      ['/v2/departments/nobody', undefined],
      ['/v2/users?sort=sideways', undefined],
      ['/v2/health', null],
      ['/v2/openapi.json', null],
      ['/docs', null],
      ['/v2/users', null],
    ] as const) {
      const get = await api.get(path, { token });
      const head = await api.request('HEAD', path, { token });
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe('');
      const headers = (response: typeof get) =>
        Object.fromEntries([...response.headers].filter(([name]) => !['date', 'keep-alive', 'connection'].includes(name)));
      expect(headers(head), path).toEqual(headers(get));
    }
  });

  it('treats HEAD as a read: an Idempotency-Key on it stores nothing', async () => {
    const key = unique('head-key');
    expect((await api.request('HEAD', '/v2/users', { headers: { 'idempotency-key': key } })).status).toBe(200);
    const created = await api.post('/v2/users', { email: `${key}@example.com`, last_name: 'Key' }, { headers: { 'idempotency-key': key } });
    expect(created.status, created.text).toBe(201);
  });

  it('serves list routes under the .json form', async () => {
    const response = await api.get('/v2/departments.json');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ departments: expect.any(Array), total: expect.any(Number) });
  });
});

describe('responses', () => {
  it('carry no-store and nosniff on success and on errors', async () => {
    for (const response of [await api.get('/v2/health'), await api.get('/v2/users/nobody'), await api.get('/v2/users', { token: null })]) {
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('never leak internals in a problem', async () => {
    const response = await api.get('/v2/users?count=abc');
    expectProblem(response, 400, 'validation');
    expect(response.text).not.toMatch(/at \w+ \(|node_modules|Error:/);
  });
});
