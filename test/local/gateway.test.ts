/**
 * The local gateway on its own: handlers are fakes that record the event, so
 * no database or handler module is involved.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_REQUEST_BYTES, startGateway, type Gateway, type GatewayEvent, type LambdaHandler } from '../../infra/local/gateway';
import { routes as routeTable, servedPaths, type Route } from '../../lib/routes';

const WRITE_TOKEN = 'write-token-for-tests';
const READ_TOKEN = 'read-token-for-tests';

const fixtureRoute = (method: Route['method'], path: string, name: string, access: Route['access']): Route => ({
  name,
  method,
  path,
  access,
  summary: name,
  tag: 'Service',
});

/** A small table with the shapes the real one will grow into (a literal next to a parameter). */
const fixtureRoutes: Route[] = [
  fixtureRoute('GET', '/v2/health', 'health', 'public'),
  fixtureRoute('GET', '/v2/things', 'listThings', 'read'),
  fixtureRoute('POST', '/v2/things', 'createThing', 'write'),
  fixtureRoute('GET', '/v2/things/{thing_id}', 'getThing', 'read'),
  fixtureRoute('GET', '/v2/things/exports', 'exportThings', 'read'),
  fixtureRoute('GET', '/v2/things/{thing_id}/parts/{part_id}', 'getPart', 'read'),
  fixtureRoute('GET', '/v2/{anything}/exports', 'anythingExports', 'read'),
  fixtureRoute('POST', '/v2/upload', 'upload', 'write'),
  fixtureRoute('GET', '/v2/boom', 'boom', 'read'),
];

/** Every event a handler received, last one last. */
const events: GatewayEvent[] = [];
const handlerNames: string[] = [];
const specialHandlers: Record<string, LambdaHandler> = {
  boom: async () => {
    throw new Error('secret internal detail');
  },
};

const recordingHandler =
  (route: Route): LambdaHandler =>
  async (event) => {
    events.push(event);
    handlerNames.push(route.name);
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'X-Handler': route.name },
      body: JSON.stringify({ handler: route.name }),
    };
  };

const loadHandler = async (route: Route) => specialHandlers[route.name] ?? recordingHandler(route);

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http rather than fetch: it can repeat a header and stream a body without a length. */
function send(
  base: string,
  options: { method?: string; path: string; headers?: OutgoingHttpHeaders; body?: Buffer | string; chunks?: Buffer[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${options.path}`, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts).toString('utf8') }),
      );
    });
    request.on('error', reject);
    if (options.chunks) {
      for (const chunk of options.chunks) request.write(chunk);
      request.end();
    } else {
      request.end(options.body);
    }
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const lastEvent = () => events[events.length - 1];

function expectSecurityHeaders(response: RawResponse) {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

function expectProblem(response: RawResponse, status: number, slug: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  const problem = JSON.parse(response.body);
  expect(problem).toMatchObject({ type: `/problems/${slug}`, status });
  expect(typeof problem.title).toBe('string');
  expectSecurityHeaders(response);
  return problem;
}

describe('local gateway', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway({ port: 0, tokens: { write: WRITE_TOKEN, read: READ_TOKEN }, routes: fixtureRoutes, loadHandler });
  });
  afterAll(async () => {
    await gateway?.close();
  });
  beforeEach(() => {
    events.length = 0;
    handlerNames.length = 0;
  });

  describe('route matching', () => {
    it('serves a literal route and its .json form under their own route keys', async () => {
      const plain = await send(gateway.url, { path: '/v2/things', headers: bearer(READ_TOKEN) });
      expect(plain.status).toBe(200);
      expect(lastEvent().routeKey).toBe('GET /v2/things');

      const json = await send(gateway.url, { path: '/v2/things.json', headers: bearer(READ_TOKEN) });
      expect(json.status).toBe(200);
      expect(handlerNames).toEqual(['listThings', 'listThings']);
      expect(lastEvent().routeKey).toBe('GET /v2/things.json');
      expect(lastEvent().requestContext.routeKey).toBe('GET /v2/things.json');
    });

    it('passes the .json suffix of a parameter through for the handler to strip', async () => {
      await send(gateway.url, { path: '/v2/things/t1.json', headers: bearer(READ_TOKEN) });
      expect(handlerNames).toEqual(['getThing']);
      expect(lastEvent().pathParameters).toEqual({ thing_id: 't1.json' });
    });

    it('prefers a literal segment over a parameter, whatever the table order', async () => {
      await send(gateway.url, { path: '/v2/things/exports', headers: bearer(READ_TOKEN) });
      await send(gateway.url, { path: '/v2/things/exports.json', headers: bearer(READ_TOKEN) });
      await send(gateway.url, { path: '/v2/things/t1', headers: bearer(READ_TOKEN) });
      // `/v2/{anything}/exports` loses to `/v2/things/{thing_id}`: the first differing segment decides.
      expect(handlerNames).toEqual(['exportThings', 'exportThings', 'getThing']);
      await send(gateway.url, { path: '/v2/others/exports', headers: bearer(READ_TOKEN) });
      expect(handlerNames[3]).toBe('anythingExports');
    });

    it('chooses the handler by method on a shared path', async () => {
      await send(gateway.url, {
        method: 'POST',
        path: '/v2/things',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(handlerNames).toEqual(['createThing']);
    });

    it('ignores the query string when matching', async () => {
      const response = await send(gateway.url, { path: '/v2/things?count=5&offset=/v2/x', headers: bearer(READ_TOKEN) });
      expect(response.status).toBe(200);
      expect(handlerNames).toEqual(['listThings']);
    });

    it.each([
      ['an unknown path', 'GET', '/v2/nothing-here'],
      ['a trailing slash', 'GET', '/v2/things/'],
      ['an empty parameter', 'GET', '/v2/things//parts/p1'],
      ['an unknown path with a method no route has', 'OPTIONS', '/v2/nothing-here'],
    ])('answers 404 not-found for %s, before checking the token', async (_, method, path) => {
      const response = await send(gateway.url, { method, path });
      expectProblem(response, 404, 'not-found');
      expect(handlerNames).toEqual([]);
    });

    it.each([
      ['a known path with another method', 'DELETE', '/v2/things', 'GET, HEAD, POST'],
      ['its .json form', 'PUT', '/v2/things.json', 'GET, HEAD, POST'],
      ['a parameter path', 'POST', '/v2/things/t1', 'GET, HEAD'],
      ['a literal path that a parameter path also serves', 'PATCH', '/v2/things/exports', 'GET, HEAD'],
      ['OPTIONS', 'OPTIONS', '/v2/health', 'GET, HEAD'],
      ['HEAD where there is no GET', 'HEAD', '/v2/upload', 'POST'],
    ])('answers 405 method-not-allowed with Allow for %s, before checking the token', async (_, method, path, allow) => {
      const response = await send(gateway.url, { method, path });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(handlerNames).toEqual([]);
      if (method === 'HEAD') expect(response.body).toBe('');
      else expect(expectProblem(response, 405, 'method-not-allowed').detail).toContain(method);
    });

    it('routes HEAD to the GET route, with the HEAD route key and its token check', async () => {
      const unauthorized = await send(gateway.url, { method: 'HEAD', path: '/v2/things' });
      expect([unauthorized.status, unauthorized.headers['content-type'], unauthorized.body]).toEqual([401, 'application/problem+json', '']);
      const response = await send(gateway.url, { method: 'HEAD', path: '/v2/things/t1.json', headers: bearer(READ_TOKEN) });
      expect(response.status).toBe(200);
      expect(handlerNames).toEqual(['getThing']);
      expect(lastEvent().routeKey).toBe('HEAD /v2/things/{thing_id}');
      expect(lastEvent().requestContext.http.method).toBe('HEAD');
    });

    it('keeps the Content-Length a handler gives a HEAD answer, and sends no body', async () => {
      const headAware = await startGateway({
        tokens: { write: WRITE_TOKEN },
        routes: fixtureRoutes,
        loadHandler: async () => async () => ({ statusCode: 200, headers: { 'content-type': 'application/json', 'content-length': '42' } }),
      });
      try {
        const response = await send(headAware.url, { method: 'HEAD', path: '/v2/health' });
        expect(response.headers['content-length']).toBe('42');
        expect(response.body).toBe('');
      } finally {
        await headAware.close();
      }
    });
  });

  describe('authorization', () => {
    it('answers 401 with a Bearer challenge when the token is missing', async () => {
      const response = await send(gateway.url, { path: '/v2/things' });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(handlerNames).toEqual([]);
    });

    it.each([
      ['a wrong token', 'Bearer not-the-token'],
      ['a token that is a prefix of the real one', `Bearer ${WRITE_TOKEN.slice(0, -1)}`],
      ['another scheme', `Basic ${WRITE_TOKEN}`],
      ['an empty bearer', 'Bearer '],
    ])('answers 401 for %s', async (_, authorization) => {
      const response = await send(gateway.url, { path: '/v2/things', headers: { authorization } });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(handlerNames).toEqual([]);
    });

    it('answers 403 forbidden for the read token on a write route', async () => {
      const response = await send(gateway.url, { method: 'POST', path: '/v2/things', headers: bearer(READ_TOKEN), body: '{}' });
      expectProblem(response, 403, 'forbidden');
      expect(handlerNames).toEqual([]);
    });

    it('lets the read token read and the write token read and write', async () => {
      expect((await send(gateway.url, { path: '/v2/things', headers: bearer(READ_TOKEN) })).status).toBe(200);
      expect(lastEvent().requestContext.authorizer?.jwt).toEqual({
        claims: { sub: 'local-reader', scope: 'admin/read' },
        scopes: ['admin/read'],
      });
      expect((await send(gateway.url, { path: '/v2/things', headers: bearer(WRITE_TOKEN) })).status).toBe(200);
      expect((await send(gateway.url, { method: 'POST', path: '/v2/things', headers: bearer(WRITE_TOKEN) })).status).toBe(200);
      expect(lastEvent().requestContext.authorizer?.jwt).toEqual({
        claims: { sub: 'local-admin', scope: 'admin/read admin/write' },
        scopes: ['admin/read', 'admin/write'],
      });
    });

    it('accepts the scheme name in any case', async () => {
      expect((await send(gateway.url, { path: '/v2/things', headers: { authorization: `bearer ${READ_TOKEN}` } })).status).toBe(200);
    });

    it('serves a public route without a token and without an authorizer', async () => {
      const response = await send(gateway.url, { path: '/v2/health' });
      expect(response.status).toBe(200);
      expect(lastEvent().requestContext.authorizer).toBeUndefined();
    });

    it('answers 401 for the read token when none is configured', async () => {
      const writeOnly = await startGateway({ tokens: { write: WRITE_TOKEN }, routes: fixtureRoutes, loadHandler });
      try {
        expect((await send(writeOnly.url, { path: '/v2/things', headers: bearer(READ_TOKEN) })).status).toBe(401);
        expect((await send(writeOnly.url, { path: '/v2/things', headers: bearer(WRITE_TOKEN) })).status).toBe(200);
      } finally {
        await writeOnly.close();
      }
    });
  });

  describe('event', () => {
    it('has the payload 2.0 shape', async () => {
      await send(gateway.url, {
        path: '/v2/things/t%201/parts/p%2F2?count=5&tag=a&tag=b&empty=&q=x%3Ay',
        headers: { ...bearer(READ_TOKEN), 'X-Mixed-Case': 'v', 'x-multi': ['one', 'two'], 'user-agent': 'vitest', cookie: 'a=1; b=2' },
      });
      const event = lastEvent();
      expect(event.version).toBe('2.0');
      expect(event.routeKey).toBe('GET /v2/things/{thing_id}/parts/{part_id}');
      expect(event.rawPath).toBe('/v2/things/t%201/parts/p%2F2');
      expect(event.rawQueryString).toBe('count=5&tag=a&tag=b&empty=&q=x%3Ay');
      expect(event.pathParameters).toEqual({ thing_id: 't 1', part_id: 'p/2' });
      expect(event.queryStringParameters).toEqual({ count: '5', tag: 'a,b', empty: '', q: 'x:y' });
      expect(event.headers['x-mixed-case']).toBe('v');
      expect(event.headers['x-multi']).toBe('one,two');
      expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);
      expect(event.cookies).toEqual(['a=1', 'b=2']);
      expect(event.headers.cookie).toBeUndefined();
      expect(event.body).toBeUndefined();
      expect(event.isBase64Encoded).toBe(false);

      const context = event.requestContext;
      expect(context).toMatchObject({
        routeKey: event.routeKey,
        stage: '$default',
        http: { method: 'GET', path: event.rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      });
      expect(context.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(context.domainName).toBe(new URL(gateway.url).host);
      expect(context.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
      expect(Math.abs(context.timeEpoch - Date.now())).toBeLessThan(10_000);
      expect(context.authorizer?.jwt.claims.sub).toBe('local-reader');
    });

    it('leaves queryStringParameters, pathParameters and cookies undefined when there are none', async () => {
      await send(gateway.url, { path: '/v2/things', headers: bearer(READ_TOKEN) });
      expect(lastEvent().queryStringParameters).toBeUndefined();
      expect(lastEvent().pathParameters).toBeUndefined();
      expect(lastEvent().cookies).toBeUndefined();
      expect(lastEvent().rawQueryString).toBe('');
    });

    it('passes a JSON body as text', async () => {
      const body = JSON.stringify({ name: 'Zoë' });
      await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/json; charset=utf-8' },
        body,
      });
      expect(lastEvent().body).toBe(body);
      expect(lastEvent().isBase64Encoded).toBe(false);
    });

    it('passes binary bodies, and text that is not UTF-8, base64-encoded', async () => {
      const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x41]);
      await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      expect(lastEvent().isBase64Encoded).toBe(true);
      expect(Buffer.from(lastEvent().body!, 'base64')).toEqual(bytes);

      await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/json' },
        body: bytes,
      });
      expect(lastEvent().isBase64Encoded).toBe(true);
      expect(Buffer.from(lastEvent().body!, 'base64')).toEqual(bytes);
    });

    it('gives the handler a Lambda-like context', async () => {
      const seen = vi.fn(async (_event: GatewayEvent, context: Parameters<LambdaHandler>[1]) => {
        expect(context.functionName).toBe('listThings');
        expect(context.getRemainingTimeInMillis()).toBeGreaterThan(1000);
        return { statusCode: 204, headers: {} };
      });
      const withContext = await startGateway({ tokens: { write: WRITE_TOKEN }, routes: fixtureRoutes, loadHandler: async () => seen });
      try {
        expect((await send(withContext.url, { path: '/v2/things', headers: bearer(WRITE_TOKEN) })).status).toBe(204);
        const [event, context] = seen.mock.calls[0];
        expect(context.awsRequestId).toBe(event.requestContext.requestId);
      } finally {
        await withContext.close();
      }
    });
  });

  describe('body limit', () => {
    it('accepts a body of exactly 6 MiB', async () => {
      const response = await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(MAX_REQUEST_BYTES, 1),
      });
      expect(response.status).toBe(200);
      expect(Buffer.from(lastEvent().body!, 'base64').length).toBe(MAX_REQUEST_BYTES);
    });

    it('answers 413 for a declared length over 6 MiB', async () => {
      const response = await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(MAX_REQUEST_BYTES + 1, 1),
      });
      expectProblem(response, 413, 'payload-too-large');
      expect(handlerNames).toEqual([]);
    });

    it('answers 413 for a chunked body that grows past 6 MiB', async () => {
      const chunk = Buffer.alloc(1024 * 1024, 1);
      const response = await send(gateway.url, {
        method: 'POST',
        path: '/v2/upload',
        headers: { ...bearer(WRITE_TOKEN), 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
        chunks: Array.from({ length: 7 }, () => chunk),
      });
      expectProblem(response, 413, 'payload-too-large');
      expect(handlerNames).toEqual([]);
    });
  });

  describe('responses', () => {
    it('writes the handler status, headers and body', async () => {
      const response = await send(gateway.url, { path: '/v2/things', headers: bearer(READ_TOKEN) });
      expect(response.headers['x-handler']).toBe('listThings');
      expect(JSON.parse(response.body)).toEqual({ handler: 'listThings' });
    });

    it('decodes a base64 handler body', async () => {
      const bytes = Buffer.from('%PDF-1.7 binary \u00ff');
      const binary = await startGateway({
        tokens: { write: WRITE_TOKEN },
        routes: fixtureRoutes,
        loadHandler: async () => async () => ({
          statusCode: 200,
          headers: { 'content-type': 'application/pdf' },
          body: bytes.toString('base64'),
          isBase64Encoded: true,
        }),
      });
      try {
        const response = await fetch(`${binary.url}/v2/health`);
        expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
      } finally {
        await binary.close();
      }
    });

    it("answers API Gateway's bare 500 for a result over the 6 MB Lambda can return, as AWS does", async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      const sized = (bodyBytes: number) => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(bodyBytes) });
      let bodyBytes = 0;
      const big = await startGateway({
        tokens: { write: WRITE_TOKEN },
        routes: fixtureRoutes,
        loadHandler: async () => async () => sized(bodyBytes),
      });
      try {
        // The whole result counts (status and headers too), not only the body.
        const overhead = JSON.stringify(sized(0)).length;
        bodyBytes = 6_291_456 - overhead;
        const fits = await fetch(`${big.url}/v2/health`);
        expect(fits.status).toBe(200);
        expect((await fits.text()).length).toBe(bodyBytes);
        bodyBytes += 1;
        const over = await fetch(`${big.url}/v2/health`);
        expect(over.status).toBe(500);
        expect(await over.json()).toEqual({ message: 'Internal Server Error' });
        expect(String(consoleError.mock.calls.at(-1)?.[0])).toContain('ResponseSizeTooLarge');
      } finally {
        consoleError.mockRestore();
        await big.close();
      }
    });

    it("answers API Gateway's bare 500 when a handler throws, its error logged", async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const response = await send(gateway.url, { path: '/v2/boom', headers: bearer(READ_TOKEN) });
        expect(response.status).toBe(500);
        expect(JSON.parse(response.body)).toEqual({ message: 'Internal Server Error' });
        expect(String(consoleError.mock.calls.at(-1)?.slice(1))).toContain('secret internal detail');
      } finally {
        consoleError.mockRestore();
      }
    });
  });
});

describe('local gateway with the real route table', () => {
  it('sends every served path of every route to that route’s handler', async () => {
    const called: string[] = [];
    const gateway = await startGateway({
      tokens: { write: WRITE_TOKEN },
      loadHandler: async (route) => async () => {
        called.push(route.name);
        return { statusCode: 204, headers: {} };
      },
    });
    try {
      for (const route of routeTable) {
        for (const path of servedPaths(route)) {
          called.length = 0;
          const concrete = path.replace(/\{\w+\}/g, 'id1');
          const response = await send(gateway.url, { method: route.method, path: concrete, headers: bearer(WRITE_TOKEN) });
          expect(response.status, `${route.method} ${concrete}`).toBe(204);
          expect(called, `${route.method} ${concrete}`).toEqual([route.name]);
        }
      }
    } finally {
      await gateway.close();
    }
  });
});

describe('local gateway authorization over the real route table', () => {
  const called: string[] = [];
  const seen: Array<{ requestContext?: { authorizer?: unknown } }> = [];
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      loadHandler: async (route) => async (event) => {
        called.push(route.name);
        seen.push(event as never);
        return { statusCode: 204, headers: {} };
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });
  beforeEach(() => {
    called.length = 0;
    seen.length = 0;
  });

  const servedRequests = (filter: (route: Route) => boolean) =>
    routeTable
      .filter(filter)
      .flatMap((route) => servedPaths(route).map((path) => [`${route.method} ${path}`, route, path.replace(/\{\w+\}/g, 'id1')] as const));

  it.each(servedRequests((route) => route.access === 'read' || route.access === 'write'))(
    '%s answers 401 without a token or with a wrong one',
    async (_, route, path) => {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${WRITE_TOKEN}` }]) {
        const response = await send(gateway.url, { method: route.method, path, headers });
        expectProblem(response, 401, 'unauthorized');
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
      expect(called).toEqual([]);
    },
  );

  it.each(servedRequests((route) => route.access === 'scim'))(
    '%s hands the SCIM route an empty token id for no token, a wrong one or an admin JWT',
    async (_, route, path) => {
      for (const headers of [{}, { authorization: 'Bearer scim_x.wrong' }, bearer(WRITE_TOKEN), bearer(READ_TOKEN)]) {
        await send(gateway.url, {
          method: route.method,
          path,
          headers,
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
        });
        // As on AWS: the authorizer lets the request through with no token id, and the route answers its SCIM 401.
        expect(seen.at(-1)?.requestContext?.authorizer).toEqual({ lambda: { tokenId: '', expiresAt: '' } });
      }
      expect(called).toEqual([route.name, route.name, route.name, route.name]);
    },
  );

  it.each(servedRequests((route) => route.access === 'write'))('%s answers 403 to the read token', async (_, route, path) => {
    const response = await send(gateway.url, { method: route.method, path, headers: bearer(READ_TOKEN) });
    expectProblem(response, 403, 'forbidden');
    expect(response.headers['www-authenticate']).toContain('insufficient_scope');
    expect(called).toEqual([]);
  });

  it.each(servedRequests((route) => route.access === 'read'))('%s lets the read token through', async (_, route, path) => {
    expect((await send(gateway.url, { method: route.method, path, headers: bearer(READ_TOKEN) })).status).toBe(204);
    expect(called).toEqual([route.name]);
  });

  it.each(servedRequests((route) => route.access === 'public'))('%s needs no token', async (_, route, path) => {
    expect((await send(gateway.url, { method: route.method, path })).status).toBe(204);
    expect(called).toEqual([route.name]);
  });

  it('keeps the contract: only health, the OpenAPI document, the docs page (with its script), the console page (with its files) and the e-mailed report link are public', () => {
    expect(routeTable.filter((route) => route.access === 'public').map((route) => route.path)).toEqual([
      '/v2/health',
      '/v2/openapi.json',
      '/docs',
      '/docs/redoc.standalone.js',
      // The page signs a person in; what it then calls needs the token like any client's.
      '/console',
      '/console/{asset}',
      // A mail reader has no token: the link's own secret opens it (lib/reports/email-link.ts).
      '/v2/reports/{report_id}/email-download',
    ]);
    // Every route that changes data demands the write scope.
    for (const route of routeTable) if (route.method !== 'GET') expect(route.access, route.name).toMatch(/^(write|scim)$/);
    // And every SCIM route is under /scim/v2, and nothing else is.
    for (const route of routeTable) expect(route.access === 'scim', route.name).toBe(route.path.startsWith('/scim/v2/'));
  });

  it('answers with no-store and nosniff itself: 401, 403, 404, 405 and 413', async () => {
    const answers = [
      await send(gateway.url, { path: '/v2/users' }),
      await send(gateway.url, { method: 'POST', path: '/v2/users', headers: bearer(READ_TOKEN) }),
      await send(gateway.url, { path: '/v2/nowhere', headers: bearer(WRITE_TOKEN) }),
      await send(gateway.url, { method: 'DELETE', path: '/v2/health', headers: bearer(WRITE_TOKEN) }),
      await send(gateway.url, {
        method: 'POST',
        path: '/v2/users',
        headers: { ...bearer(WRITE_TOKEN), 'content-length': String(MAX_REQUEST_BYTES + 1) },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 403, 404, 405, 413]);
    for (const answer of answers) expectSecurityHeaders(answer);
  });
});
