/** An HTTP client for the service through the local gateway, as a real caller sees it. */
import { afterAll, beforeAll } from 'vitest';
import { startBackgroundJobs, type BackgroundRunner } from '../../infra/local/background';
import type { StackContext } from '../../infra/local/deployment';
import { handlersFromSource, startGateway, type Gateway, type GatewayOptions, type InProcessReason } from '../../infra/local/gateway';
import { startFunctions, type DeploySettings, type TestFunctions } from './functions';
import { checkResponse } from './openapi-check';

export const WRITE_TOKEN = 'test-write-token';
export const READ_TOKEN = 'test-read-token';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response has a body, else undefined. */
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Defaults to the write token; `null` sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
}

export class Api {
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? WRITE_TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const result = { status: response.status, headers: response.headers, body: parsed, text };
    // Every answer must be what the OpenAPI document promises: no undocumented status, header or field.
    await checkResponse({ method, path }, result);
    return result;
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body?: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  put = (path: string, body?: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  patch = (path: string, body?: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  delete = (path: string, body?: unknown, options?: RequestOptions) => this.request('DELETE', path, { ...options, body });
}

export interface UseApiOptions {
  /** The stack's settings the functions are deployed with (default TEST_CONTEXT: report e-mail to any domain). */
  context?: StackContext;
  /**
   * Runs the route handlers from source in this process instead of their bundles, and why; `around` runs each
   * handler call (e.g. under other sizes, withGroupTuning). The background functions still run from their bundles.
   */
  inProcess?: { because: InProcessReason; around?: (call: () => Promise<unknown>) => Promise<unknown> };
}

/** The API of a test file, with its functions: their logs, and a redeploy with other settings. */
export class TestApi extends Api {
  functions?: TestFunctions;

  /** The lines a function (by handler name) wrote to its log so far. */
  output(handler: string): string[] {
    return this.functions!.output(handler);
  }

  /** Restarts every function with other settings (another table, another stack context, other endpoints). */
  redeploy(settings: DeploySettings): Promise<void> {
    return this.functions!.redeploy(settings);
  }
}

/**
 * A gateway of a test's own (its own options: an access log, no background functions) over the deployed
 * functions from their bundles, or from source in this process for a reason of InProcessReason (the SCIM
 * authorizer's check too). Closing it ends
 * its functions too.
 */
export async function startTestGateway(
  options: Omit<GatewayOptions, 'loadHandler' | 'scimAuthorizer'> & { inProcess?: InProcessReason },
): Promise<Gateway & { functions: TestFunctions }> {
  const { inProcess, ...gatewayOptions } = options;
  const functions = await startFunctions();
  const gateway = await startGateway({
    ...gatewayOptions,
    loadHandler: inProcess ? handlersFromSource(inProcess) : functions.loadHandler,
    // In this process too (the gateway's own check, lib/scim/tokens.ts), so that faults reach it.
    scimAuthorizer: inProcess ? undefined : functions.scimAuthorizer,
    fallbackFunction: functions.fallbackFunction,
  });
  await functions.redeploy({ apiUrl: gateway.url });
  return {
    url: gateway.url,
    functions,
    close: async () => {
      await gateway.close();
      await functions.close();
    },
  };
}

/**
 * Starts a gateway for the current test file over the deployed functions, each from its bundle with the file's
 * own table, and the background functions as `npm start` runs them.
 */
export function useApi(options: UseApiOptions = {}): TestApi {
  let gateway: Gateway | undefined;
  let background: BackgroundRunner | undefined;
  const api = new TestApi('');
  beforeAll(async () => {
    const functions = await startFunctions({ context: options.context });
    api.functions = functions;
    const { inProcess } = options;
    const fromSource = inProcess && handlersFromSource(inProcess.because);
    const around = inProcess?.around;
    gateway = await startGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      loadHandler: !fromSource
        ? functions.loadHandler
        : async (route) => {
            const handler = await fromSource(route);
            return around ? (event, context) => around(() => handler(event, context)) : handler;
          },
      scimAuthorizer: functions.scimAuthorizer,
      fallbackFunction: functions.fallbackFunction,
    });
    // Where the report e-mail's link points, as on AWS: the API's URL, for the functions and this process.
    await functions.redeploy({ apiUrl: gateway.url });
    process.env.API_BASE_URL = gateway.url;
    background = startBackgroundJobs(functions.host, {
      schedules: false,
      // Tests that switch tables per run drop the old ones under the poller: not worth a line.
      onError: (name, error) => {
        if (!String((error as Error)?.message).includes('ResourceNotFoundException'))
          console.error(`${name} failed in the background:`, error);
      },
    });
    (api as { baseUrl: string }).baseUrl = gateway.url;
  });
  afterAll(async () => {
    await background?.stop();
    await gateway?.close();
    await api.functions?.close();
  });
  return api;
}
