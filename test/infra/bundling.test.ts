/**
 * The documentation functions and the fallback as they deploy: bundled with the stack's
 * esbuild options, with the files their bundling makes beside the bundle
 * (infra/bundling.ts FUNCTION_FILES), and run by plain Node from a directory
 * that holds nothing else, as Lambda runs them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { FUNCTION_FILES, functionBundling } from '../../infra/bundling';
import { RENDERER_FILE, RENDERER_SOURCE } from '../../lib/openapi/assets';
import { generateDocument } from '../../lib/openapi/generate';
import { FALLBACK_FUNCTION, ROUTE_KEYS_FILE, routeKeys, routes } from '../../lib/routes';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const directories: string[] = [];

afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

/** Bundles functions/<handler>.ts as NodejsFunction would, then runs its afterBundling commands; returns the output directory. */
async function bundle(handler: string): Promise<{ dir: string; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), `bundle-${handler}-`));
  directories.push(dir);
  const options = functionBundling(handler);
  await build({
    entryPoints: [join(projectRoot, 'functions', `${handler}.ts`)],
    outfile: join(dir, 'index.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: options.target,
    minify: options.minify,
    mainFields: options.mainFields,
    banner: { js: options.banner! },
    logLevel: 'error',
  });
  for (const command of options.commandHooks?.afterBundling(projectRoot, dir) ?? [])
    execFileSync('bash', ['-c', command], { stdio: 'pipe' });
  return { dir, bytes: statSync(join(dir, 'index.mjs')).size };
}

type Answer = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean };

/** Calls the bundled handler with each event in turn, in one fresh Node process, from the bundle's directory only. */
function invokeEach(dir: string, events: readonly object[], env: Record<string, string> = {}): Answer[] {
  const script = `const { handler } = await import('./index.mjs'); const answers = []; for (const event of ${JSON.stringify(events)}) answers.push(await handler(event)); process.stdout.write(JSON.stringify(answers));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    }),
  );
}

/** Calls the bundled handler in a fresh Node process, from the bundle's directory only. */
const invoke = (dir: string, event: object, env: Record<string, string> = {}): Answer => invokeEach(dir, [event], env)[0]!;

const event = (headers: Record<string, string> = {}) => ({ headers, requestContext: { requestId: 'test' } });

describe('the console functions as deployed', () => {
  const signIn = {
    CONSOLE_AUTHORIZE_URL: 'https://login.example.com/oauth2/authorize',
    CONSOLE_TOKEN_URL: 'https://login.example.com/oauth2/token',
    CONSOLE_CLIENT_ID: 'console-client',
    CONSOLE_SCOPES: 'openid admin/read admin/write',
  };

  it('console: serves the built page, with the sign-in settings and their token origin in the CSP when the stack gives them', async () => {
    const { dir, bytes } = await bundle('console');
    expect(bytes).toBeLessThan(8 * 1024);
    const bare = invoke(dir, event());
    expect(bare.statusCode).toBe(200);
    expect(bare.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bare.body).toMatch(/<script type="module" crossorigin src="console\/index-[\w-]+\.js"><\/script>/);
    expect(bare.body).not.toContain('dept-admin-sign-in');
    expect(bare.headers['content-security-policy']).toContain("connect-src 'self';");

    const withLogin = invoke(dir, event(), signIn);
    const meta = /<meta name="dept-admin-sign-in" content="([^"]+)">/.exec(withLogin.body)![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(JSON.parse(meta)).toEqual({
      authorizeUrl: signIn.CONSOLE_AUTHORIZE_URL,
      tokenUrl: signIn.CONSOLE_TOKEN_URL,
      clientId: signIn.CONSOLE_CLIENT_ID,
      scopes: signIn.CONSOLE_SCOPES,
    });
    expect(withLogin.headers['content-security-policy']).toContain("connect-src 'self' https://login.example.com;");
  }, 60_000);

  it('consoleAssets: serves the hashed files beside it, gzipped when asked, and nothing else', async () => {
    const { dir } = await bundle('consoleAssets');
    const page = readFileSync(join(dir, 'console', 'index.html'), 'utf8');
    const script = /src="console\/([^"]+\.js)"/.exec(page)![1];
    const asset = (name: string, headers: Record<string, string> = {}) => invoke(dir, { ...event(headers), pathParameters: { asset: name } });
    const plain = asset(script);
    expect(plain).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' } });
    expect(plain.body).toBe(readFileSync(join(dir, 'console', script), 'utf8'));
    expect(asset(script, { 'accept-encoding': 'gzip' })).toMatchObject({ statusCode: 200, isBase64Encoded: true });
    for (const name of ['index.html', '../index.mjs', 'index.mjs', 'missing-abc.js', '.hidden.js']) expect(asset(name).statusCode, name).toBe(404);
  }, 60_000);

  it("keeps the console's JavaScript and CSS within its 150 KB gzipped budget, and holds no source map or other file", async () => {
    const { dir } = await bundle('consoleAssets');
    const files = readdirSync(join(dir, 'console'));
    expect(files.filter((name) => name !== 'index.html' && !/\.(js|css)$/.test(name))).toEqual([]);
    const gzipped = files
      .filter((name) => /\.(js|css)$/.test(name))
      .reduce((sum, name) => sum + gzipSync(readFileSync(join(dir, 'console', name)), { level: 9 }).length, 0);
    expect(gzipped).toBeGreaterThan(10 * 1024);
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
  }, 60_000);
});

describe('documentation functions as deployed', () => {
  it('has no extra files for other functions', () => {
    expect(Object.keys(FUNCTION_FILES).sort()).toEqual(['console', 'consoleAssets', 'docsRenderer', FALLBACK_FUNCTION.handler, 'openapi']);
    expect(functionBundling('getUser').commandHooks).toBeUndefined();
    expect(functionBundling().commandHooks).toBeUndefined();
  });

  it('openapi: a small bundle that serves the document generated at build time', async () => {
    const { dir, bytes } = await bundle('openapi');
    expect(bytes).toBeLessThan(16 * 1024); // no generator, schemas or handlers inside
    const response = invoke(dir, event());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const { document } = await generateDocument({ strict: true });
    expect(JSON.parse(response.body)).toEqual(document);
  }, 60_000);

  it('docsRenderer: serves the renderer copied next to it, gzipped when asked', async () => {
    const { dir, bytes } = await bundle('docsRenderer');
    expect(bytes).toBeLessThan(16 * 1024);
    const original = readFileSync(join(projectRoot, RENDERER_SOURCE));
    expect(readFileSync(join(dir, RENDERER_FILE)).equals(original)).toBe(true);
    const plain = invoke(dir, event());
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    expect(plain.body).toBe(original.toString('utf8'));
    const gzipped = invoke(dir, event({ 'accept-encoding': 'gzip, br' }));
    expect(gzipped).toMatchObject({ statusCode: 200, isBase64Encoded: true, headers: { 'content-encoding': 'gzip' } });
    expect(Buffer.from(gzipped.body, 'base64').length).toBeLessThan(original.length / 2);
  }, 60_000);

  it('docs: a tiny bundle that serves the page', async () => {
    const { dir, bytes } = await bundle('docs');
    expect(bytes).toBeLessThan(8 * 1024);
    const response = invoke(dir, event());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(`<script src="docs/${RENDERER_FILE}"></script>`);
  }, 60_000);
});

describe('the fallback function as deployed', () => {
  let deployed: Promise<{ dir: string; bytes: number }> | undefined;
  const fallbackBundle = () => (deployed ??= bundle(FALLBACK_FUNCTION.handler));

  it('ships with the route keys of the route table, which the API has as its routes', async () => {
    const { dir } = await fallbackBundle();
    // The stack test checks the API's routes are these same keys (plus `$default`).
    expect(JSON.parse(readFileSync(join(dir, ROUTE_KEYS_FILE), 'utf8'))).toEqual(routes.flatMap(routeKeys));
  }, 60_000);

  it('is a small bundle with no AWS client and no route table that answers 404 and 405 from the route keys', async () => {
    const { dir, bytes } = await fallbackBundle();
    // Its size is its cold start: the problem shapes and path matching, nothing else (the keys are a file beside it).
    expect(bytes).toBeLessThan(6 * 1024);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).not.toMatch(/@aws-sdk|DynamoDBClient|S3Client/);
    expect(routes.filter((route) => code.includes(route.summary)).map((route) => route.name)).toEqual([]);
    const request = (method: string, path: string) => ({ rawPath: path, requestContext: { requestId: 't', http: { method, path } } });
    const answer = (method: string, path: string) => invoke(dir, request(method, path));
    const missing = answer('GET', '/v2/nothing-here');
    expect([missing.statusCode, missing.headers['content-type'], JSON.parse(missing.body).type]).toEqual([
      404,
      'application/problem+json',
      '/problems/not-found',
    ]);
    // Every route's path with a method it does not serve, in one process (a process each took 80 s on a loaded machine).
    const asked = routes.map((route) => ({
      route,
      wrong: route.method === 'DELETE' ? 'PUT' : 'DELETE',
      path: route.path.replace(/\{[^}]+\}/g, 'x1'),
    }));
    const answers = invokeEach(
      dir,
      asked.map(({ wrong, path }) => request(wrong, path)),
    );
    for (const [index, { route, wrong, path }] of asked.entries()) {
      const response = answers[index]!;
      if (response.statusCode === 405) {
        expect(response.headers.allow.split(', '), path).toContain(route.method);
        if (route.access === 'scim') {
          // SCIM errors under SCIM's base path (never problem+json there).
          expect([response.headers['content-type'], JSON.parse(response.body).status], path).toEqual(['application/scim+json', '405']);
        } else {
          expect(JSON.parse(response.body).type).toBe('/problems/method-not-allowed');
        }
      } else {
        // Another route serves the wrong method on this path (e.g. DELETE /v2/users/{id}).
        expect(
          routes.some((other) => other.method === wrong && new RegExp(`^${other.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path)),
          path,
        ).toBe(true);
      }
    }
    const head = answer('HEAD', '/v2/nothing-here');
    expect([head.statusCode, head.body]).toEqual([404, undefined]);
  }, 60_000);
});
