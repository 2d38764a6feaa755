/**
 * The local function host runs what ships: each function from its bundle, in sandboxes of its own, with exactly
 * the template's environment, failing as Lambda fails. Fixture functions (test/local/fixtures/) are built by the
 * stack's own build (infra/build.ts); the real ones come from the global setup's build and synth.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleFunctions } from '../../infra/build';
import { FUNCTION_RUNTIME } from '../../infra/bundling';
import type { LocalFunction } from '../../infra/local/deployment';
import { FunctionError, startFunctionHost, type FunctionHost } from '../../infra/local/functions';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { OPENAPI_FILE } from '../../lib/openapi/assets';
import { ROUTE_KEYS_FILE } from '../../lib/routes';
import { READ_TOKEN, WRITE_TOKEN } from '../support/api';
import { startFunctions, type TestFunctions } from '../support/functions';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));
const services = inject('services');

/** A function of a made-up template: its environment and limits. */
const fixtureFunction = (handler: string, overrides: Partial<LocalFunction> = {}): LocalFunction => ({
  handler,
  logicalId: `${handler}Function`,
  roleLogicalId: `${handler}Role`,
  environment: { FIXTURE_SETTING: handler, NODE_OPTIONS: '--enable-source-maps' },
  statements: [],
  managedPolicyArns: [],
  timeoutSeconds: 10,
  memoryMb: 256,
  ...overrides,
});

describe('the function host, with fixture functions', () => {
  const bundlesDir = mkdtempSync(join(tmpdir(), 'function-host-'));
  const lines: Array<{ handler: string; line: string }> = [];
  const outputOf = (handler: string) => lines.filter((entry) => entry.handler === handler).map((entry) => entry.line);
  const hosts: FunctionHost[] = [];
  const host = (functions: LocalFunction[], maxSandboxes?: number, initTimeoutMs?: number) => {
    const started = startFunctionHost({
      bundlesDir,
      functions,
      endpointsFor: async () => services.endpoints,
      output: (handler, line) => lines.push({ handler, line }),
      maxSandboxes,
      initTimeoutMs,
    });
    hosts.push(started);
    return started;
  };

  beforeAll(async () => {
    await bundleFunctions(projectRoot, bundlesDir, {
      setValue: fixture('setValue'),
      readValue: fixture('readValue'),
      misbehave: fixture('misbehave'),
      slowInit: fixture('slowInit'),
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(hosts.map((started) => started.close()));
    rmSync(bundlesDir, { recursive: true, force: true });
  });

  it('gives each function its own module instances: a value one sets, the other does not see', async () => {
    const functions = host([fixtureFunction('setValue'), fixtureFunction('readValue')]);
    expect(await functions.invoke('setValue', { set: 'from setValue' })).toMatchObject({ value: 'from setValue' });
    expect(await functions.invoke('setValue', {})).toMatchObject({ value: 'from setValue' }); // the same warm sandbox
    expect(await functions.invoke('readValue', {})).toEqual({ value: null });
  });

  it("runs a function on the Lambda runtime's Node, whichever Node runs the host", async () => {
    const functions = host([fixtureFunction('setValue')]);
    const { node } = (await functions.invoke('setValue', {})) as { node: string };
    expect(node.split('.')[0]).toBe(`v${/^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)![1]}`);
  });

  it("gives a function exactly the template's environment and what the Lambda runtime sets, nothing of this process", async () => {
    const functions = host([fixtureFunction('setValue')]);
    const { environment } = (await functions.invoke('setValue', {})) as { environment: Record<string, string> };
    expect(process.env.TABLE_NAME, 'this process has a table the function must not see').toBeDefined();
    expect(Object.keys(environment).sort()).toEqual(
      [
        ...['FIXTURE_SETTING', 'NODE_OPTIONS'],
        ...[
          'AWS_REGION',
          'AWS_DEFAULT_REGION',
          'AWS_LAMBDA_FUNCTION_NAME',
          'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
          'AWS_LAMBDA_FUNCTION_VERSION',
        ],
        ...['AWS_LAMBDA_LOG_GROUP_NAME', 'AWS_LAMBDA_LOG_STREAM_NAME', 'AWS_EXECUTION_ENV'],
        ...['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'LAMBDA_TASK_ROOT', '_HANDLER', 'TZ', 'LANG'],
        ...['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SES_ENDPOINT', 'SQS_ENDPOINT'],
      ].sort(),
    );
    expect(environment).toMatchObject({
      FIXTURE_SETTING: 'setValue',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
      LAMBDA_TASK_ROOT: join(bundlesDir, 'setValue'),
      DYNAMODB_ENDPOINT: services.endpoints.dynamodb,
    });
  });

  it('fails an invocation whose handler throws, with the error in the function’s log, and keeps the sandbox', async () => {
    const functions = host([fixtureFunction('misbehave')]);
    const failed = functions.invoke('misbehave', { action: 'throw' }, { requestId: 'request-throw' });
    await expect(failed).rejects.toBeInstanceOf(FunctionError);
    await expect(failed).rejects.toThrow(/fixture failure/);
    expect(outputOf('misbehave').join('\n')).toMatch(/request-throw\tERROR\tInvoke Error .*fixture failure: secret detail/);
    expect(await functions.invoke('misbehave', { action: 'sleep', ms: 1 })).toEqual({ invocations: 2 });
  });

  it('ends a sandbox past the template’s Timeout, and the next invocation gets a fresh one', async () => {
    const functions = host([fixtureFunction('misbehave', { timeoutSeconds: 1 })]);
    const started = Date.now();
    await expect(functions.invoke('misbehave', { action: 'hang' }, { requestId: 'request-hang' })).rejects.toThrow(
      /Task timed out after 1.00 seconds/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outputOf('misbehave')).toContain('request-hang Task timed out after 1.00 seconds');
    expect(await functions.invoke('misbehave', { action: 'sleep', ms: 1 }), 'a fresh sandbox counts from one').toEqual({ invocations: 1 });
  });

  const slowInit = (initMs: number, timeoutSeconds = 10) =>
    fixtureFunction('slowInit', { timeoutSeconds, environment: { INIT_UNTIL: String(Date.now() + initMs) } });

  it('tries an init past its limit again within the invocation, as Lambda does, and answers', async () => {
    const functions = host([slowInit(1500)], undefined, 300);
    expect(await functions.invoke('slowInit', {})).toEqual({ invocations: 1 });
    expect(outputOf('slowInit')).toContain('INIT_REPORT Init Duration: 300 ms Phase: init Status: timeout');
    expect(await functions.invoke('slowInit', {}), 'the sandbox of the second init stays warm').toEqual({ invocations: 2 });
  });

  it('fails the invocation when the init tried again outlives the template’s Timeout too', async () => {
    const functions = host([slowInit(60_000, 1)], undefined, 300);
    const started = Date.now();
    await expect(functions.invoke('slowInit', {})).rejects.toThrow(/Task timed out after 1.00 seconds/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outputOf('slowInit')).toContain('INIT_REPORT Init Duration: 1000 ms Phase: invoke Status: timeout');
  });

  it('replaces a sandbox that an unhandled rejection ends', async () => {
    const functions = host([fixtureFunction('misbehave')]);
    await expect(functions.invoke('misbehave', { action: 'crash' })).rejects.toBeInstanceOf(FunctionError);
    expect(await functions.invoke('misbehave', { action: 'sleep', ms: 1 })).toEqual({ invocations: 1 });
  });

  it('runs one invocation at a time per sandbox: the pool grows on demand up to its cap, and keeps them warm', async () => {
    const functions = host([fixtureFunction('misbehave')], 2);
    const overlapping = await Promise.all([1, 2, 3].map(() => functions.invoke('misbehave', { action: 'sleep', ms: 300 })));
    expect(overlapping, 'two sandboxes, the third invocation waited for one').toEqual(
      expect.arrayContaining([{ invocations: 1 }, { invocations: 2 }]),
    );
    expect(functions.coldStarts().filter((start) => start.handler === 'misbehave')).toHaveLength(2);
    await functions.invoke('misbehave', { action: 'sleep', ms: 1 });
    expect(
      functions.coldStarts().filter((start) => start.handler === 'misbehave'),
      'warm: no new sandbox',
    ).toHaveLength(2);
  });

  it("answers API Gateway's bare 500 through the gateway when the function throws", async () => {
    const functions = host([fixtureFunction('misbehave')]);
    const gateway = await startGateway({
      tokens: { write: WRITE_TOKEN },
      loadHandler: async () => async () => functions.invoke('misbehave', { action: 'throw' }),
    });
    try {
      const response = await fetch(`${gateway.url}/v2/health`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    } finally {
      await gateway.close();
    }
  });
});

describe('the real functions, from the bundles the stack deploys', () => {
  let functions: TestFunctions;
  let gateway: Gateway;
  beforeAll(async () => {
    // As a deployment whose template forgot getUser's table would run it.
    functions = await startFunctions({
      adjust: (fn) => {
        if (fn.handler !== 'getUser') return fn;
        const { TABLE_NAME: _table, ...environment } = fn.environment;
        return { ...fn, environment };
      },
    });
    gateway = await startGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      loadHandler: functions.loadHandler,
      scimAuthorizer: functions.scimAuthorizer,
      fallbackFunction: functions.fallbackFunction,
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await functions?.close();
  });
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${READ_TOKEN}`, ...init.headers } });

  it('fails a function started without a variable it needs as on AWS: a 500, and its log names the variable', async () => {
    const response = await get('/v2/users/ada');
    expect(response.status).toBe(500);
    expect(functions.output('getUser').join('\n')).toContain('TABLE_NAME is not set');
    // Its neighbours have theirs.
    expect((await get('/v2/users')).status).toBe(200);
  });

  it('serves the OpenAPI document and the fallback from the files the build put next to their bundles', async () => {
    const document = await get('/v2/openapi.json');
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    expect((await get('/v2/no-such-thing')).status).toBe(404);
    const wrongMethod = await get('/v2/users', { method: 'PATCH', headers: { authorization: `Bearer ${WRITE_TOKEN}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('GET');
  });

  it('fails a function whose run-time file the build did not ship, as it would on AWS', async () => {
    const { bundlesDir } = inject('functions');
    const bare = mkdtempSync(join(tmpdir(), 'bare-bundles-'));
    // The openapi bundle without its openapi.json, and the fallback without its route keys.
    cpSync(join(bundlesDir, 'openapi'), join(bare, 'openapi'), { recursive: true, filter: (file) => !file.endsWith(OPENAPI_FILE) });
    cpSync(join(bundlesDir, 'fallback'), join(bare, 'fallback'), { recursive: true, filter: (file) => !file.endsWith(ROUTE_KEYS_FILE) });
    const lines: string[] = [];
    const host = startFunctionHost({
      bundlesDir: bare,
      functions: [fixtureFunction('openapi'), fixtureFunction('fallback')],
      endpointsFor: async () => services.endpoints,
      output: (_, line) => lines.push(line),
    });
    try {
      const event = { requestContext: { http: { method: 'GET' }, requestId: 'r' }, rawPath: '/v2/openapi.json', headers: {} };
      expect(await host.invoke('openapi', event)).toMatchObject({ statusCode: 500 });
      expect(await host.invoke('fallback', { ...event, rawPath: '/v2/nothing' })).toMatchObject({ statusCode: 500 });
      expect(lines.join('\n')).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    } finally {
      await host.close();
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('reports each sandbox’s cold start: the worker and the import of its bundle, then its first invocation', () => {
    const starts = functions.host.coldStarts();
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) {
      expect(start.initMs).toBeGreaterThan(0);
      expect(start.firstInvocationMs).toBeGreaterThanOrEqual(0);
    }
  });
});
