/** An HTTP client for the service through the local gateway, as a real caller sees it. */
import { afterAll, beforeAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startBackgroundJobs, type BackgroundRunner } from '../../infra/local/background';
import { functionHandlers, startGateway, type Gateway } from '../../infra/local/gateway';
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
  /** Runs each handler call, e.g. under other sizes (withGroupTuning); the background functions run without it. */
  around?: (call: () => Promise<unknown>) => Promise<unknown>;
}

/**
 * Starts a gateway for the current test file (its handlers use the file's own
 * table), and the background functions as `npm start` runs them.
 */
export function useApi(options: UseApiOptions = {}): Api {
  let gateway: Gateway | undefined;
  let background: BackgroundRunner | undefined;
  const api = new Api('');
  beforeAll(async () => {
    const { around } = options;
    const load = functionHandlers();
    gateway = await startGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      loadHandler:
        around &&
        (async (route) => {
          const handler = await load(route);
          return (event, context) => around(() => handler(event, context));
        }),
    });
    process.env.API_BASE_URL = gateway.url; // where the report e-mail's link points, as on AWS
    background = startBackgroundJobs(fileURLToPath(new URL('../../', import.meta.url)), {
      schedules: false,
      // Tests that switch tables per run drop the old ones under the poller: not worth a line.
      onError: (name, error) => {
        if ((error as { name?: string }).name !== 'ResourceNotFoundException') console.error(`${name} failed in the background:`, error);
      },
    });
    (api as { baseUrl: string }).baseUrl = gateway.url;
  });
  afterAll(async () => {
    await background?.stop();
    await gateway?.close();
  });
  return api;
}
