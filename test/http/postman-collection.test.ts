/**
 * The service as a newcomer drives it with tools nobody on the project wrote
 * (docs/testing.md): a Postman collection generated from /v2/openapi.json by
 * `openapi-to-postmanv2`, run by `newman`, through a Prism validating proxy
 * (`prism proxy --errors`) in front of the local service.
 *
 * - The converter runs with its default options but one,
 *   `requestParametersResolution: 'Example'`: by default it writes a type
 *   placeholder (`<string>`, `<integer>`) for every value that has no JSON
 *   Schema `default`, request bodies included, so no faithful document can
 *   make a default collection succeed; with 'Example' it takes the
 *   document's examples, which is what they are there for.
 * - Seed step (SEED below, documented in docs/testing.md "The Postman
 *   collection by hand"): what the collection's examples name but the collection itself
 *   does not create before it uses them, or deletes: a few users,
 *   departments, groups and one complete report of each type.
 * - The collection runs in its own order. Every answer must be 2xx, or one
 *   of the 4xx in MEANT (each with the reason its request is meant to get
 *   it); Prism must find no violation of the document in any request or
 *   response (it would answer 422/500 with `--errors`, and names violations
 *   in `sl-violations`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import newman from 'newman';
import converter from 'openapi-to-postmanv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactWrite } from '../../lib/db/transact';
import { generateDocument } from '../../lib/openapi/generate';
import { reportObjectKey } from '../../lib/reports/jobs';
import type { ReportType } from '../../lib/schemas/enums';
import { reportPut } from '../../lib/store/reports';
import { scimTokenPut } from '../../lib/store/scim-tokens';
import { webhookCreate } from '../../lib/store/webhooks';
import { SCIM_BASE_PATH } from '../../lib/routes';
import { newScimToken } from '../support/scim';
import { useApi, WRITE_TOKEN } from '../support/api';

const api = useApi();
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The seed step: made through the API (and the two reports in the table, as the worker leaves them). */
export const SEED = {
  users: ['grace', 'leaver'],
  departments: ['closing'],
  groups: ['reviewers', 'retired', 'old-group'],
  reports: { departments: 'r-departments-example', groups: 'r-groups-example' } satisfies Record<ReportType, string>,
  /** A SCIM token of the example's id, for its DELETE (a token's id is the service's, its secret shown once). */
  scimTokenId: 'k3YtQ9wN2xVb7LpA',
  /** Webhooks of the examples' ids (a webhook's id is the service's): the one the examples read and change, and the one deleted. */
  webhookIds: ['wh-example', 'wh-retired'],
};

/**
 * The 4xx the collection's requests are meant to get, by `METHOD path` as
 * the collection writes it, with why. Nothing else may answer 4xx.
 */
const TWIN = 'the `.json` twin repeats the example of the request before it, which';
const MEANT: Record<string, { status: number; why: string }> = {
  'POST /v2/users.json': { status: 409, why: `${TWIN} created user ada (its e-mail is taken)` },
  'POST /v2/departments.json': { status: 409, why: `${TWIN} created department eng` },
  'POST /v2/groups.json': { status: 409, why: `${TWIN} created group designers` },
  'DELETE /v2/groups.json': { status: 404, why: `${TWIN} deleted groups reviewers and retired` },
  'GET /v2/reports/r-departments-example/email-download': {
    status: 404,
    why: "an e-mailed report link's secret exists only in the e-mail that carries it, never in a document",
  },
  'GET /v2/reports/r-departments-example/email-download.json': { status: 404, why: 'the same link, by its `.json` twin' },
  'GET /console/index-Bx8k2Q1c.js': {
    status: 404,
    why: "the console's files are named by the hash of their content, which a document written before the build cannot know",
  },
};

interface Exchange {
  request: string;
  status: number;
  violations: string | undefined;
  body: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `prism proxy --errors` in front of the service; resolves once it listens. */
async function startPrism(documentFile: string, upstream: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  const child = spawn(
    join(projectRoot, 'node_modules/.bin/prism'),
    ['proxy', documentFile, upstream, '--errors', '-h', '127.0.0.1', '-p', String(port)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}:\n${output}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

function convert(document: object): Promise<any> {
  return new Promise((resolve, reject) => {
    converter.convert({ type: 'json', data: document as never }, { requestParametersResolution: 'Example' }, (error, result) => {
      if (error) return reject(error);
      if (!result?.result || !result.output) return reject(new Error(String(result?.reason)));
      resolve(result.output[0].data);
    });
  });
}

/**
 * The collection's requests under SCIM's base path, and the others. Both
 * security schemes are HTTP bearer, which the converter maps to one
 * `bearerToken` variable: a user runs the admin requests with an admin token
 * and the SCIM ones with a SCIM token, so the test runs the two parts so.
 */
function partition(collection: any): { admin: any; scim: any } {
  const isScim = (item: any) => `/${(item.request?.url?.path ?? []).join('/')}`.startsWith(SCIM_BASE_PATH);
  const keep = (items: any[], wanted: boolean): any[] =>
    items.flatMap((item) => {
      if (!item.item) return isScim(item) === wanted ? [item] : [];
      const inner = keep(item.item, wanted);
      return inner.length > 0 ? [{ ...item, item: inner }] : [];
    });
  return { admin: { ...collection, item: keep(collection.item, false) }, scim: { ...collection, item: keep(collection.item, true) } };
}

function runNewman(
  collection: object,
  baseUrl: string,
  token: string,
): Promise<{ exchanges: Exchange[]; summary: newman.NewmanRunSummary }> {
  const exchanges: Exchange[] = [];
  return new Promise((resolve, reject) => {
    newman
      .run({
        collection: collection as never,
        envVar: [
          { key: 'baseUrl', value: baseUrl },
          { key: 'bearerToken', value: token },
        ],
        reporters: [],
        timeoutRequest: 30_000,
      })
      .on('request', (error, args) => {
        if (error) return;
        const request = args.request;
        const path = request.url.getPath(true);
        exchanges.push({
          request: `${request.method} ${path}`,
          status: args.response.code,
          violations: args.response.headers.get('sl-violations') ?? undefined,
          body: args.response.stream?.toString('utf8').slice(0, 400) ?? '',
        });
      })
      .on('done', (error, summary) => (error ? reject(error) : resolve({ exchanges, summary })));
  });
}

/** Makes what the collection's examples name; answers the SCIM token its SCIM requests run with. */
async function seed(): Promise<string> {
  const ok = (response: { status: number; text: string }, what: string) =>
    expect(response.status, `${what}: ${response.text}`).toBeLessThan(300);
  for (const id of SEED.users) ok(await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: id }), `user ${id}`);
  for (const id of SEED.departments) ok(await api.post('/v2/departments', { id, name: `Department ${id}` }), `department ${id}`);
  for (const id of SEED.groups) ok(await api.post('/v2/groups', { id, name: `Group ${id}` }), `group ${id}`);
  const now = new Date().toISOString();
  for (const [type, id] of Object.entries(SEED.reports) as Array<[ReportType, string]>) {
    await transactWrite([
      reportPut({
        id,
        type,
        status: 'complete',
        created_at: now,
        completed_at: now,
        row_count: 0,
        email: null,
        object_key: reportObjectKey(type, id),
        attempts: 1,
      }),
    ]);
  }
  await transactWrite([
    scimTokenPut({
      id: SEED.scimTokenId,
      description: 'example',
      secret_hash: '00'.repeat(32),
      created_at: new Date().toISOString(),
      expires_at: null,
    }),
  ]);
  for (const id of SEED.webhookIds) {
    const at = new Date().toISOString();
    await transactWrite(
      webhookCreate(
        {
          id,
          url: 'https://203.0.113.10/directory-changes',
          description: 'example',
          resource_types: [],
          operations: [],
          exclude_actors: [],
          status: 'active',
          secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
          previous_secret: null,
          previous_secret_expires_at: null,
          created_at: at,
          updated_at: at,
          paused_at: null,
          resumed_at: null,
        },
        25,
        () => new Error('over the limit'),
      ),
    );
  }
  return (await newScimToken(api, 'Postman collection')).token;
}

describe('a Postman collection generated from the document, run by newman through a Prism proxy', () => {
  let dir: string;
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  let result: { exchanges: Exchange[]; failures: unknown[]; requests: number };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'postman-'));
    const { document } = await generateDocument({ strict: true });
    const documentFile = join(dir, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(document));
    const scimToken = await seed();
    prism = await startPrism(documentFile, api.baseUrl);
    const { admin, scim } = partition(await convert(document));
    const first = await runNewman(admin, prism.url, WRITE_TOKEN);
    const second = await runNewman(scim, prism.url, scimToken);
    result = {
      exchanges: [...first.exchanges, ...second.exchanges],
      failures: [...first.summary.run.failures, ...second.summary.run.failures],
      requests: (first.summary.run.stats.requests.total ?? 0) + (second.summary.run.stats.requests.total ?? 0),
    };
  }, 240_000);

  afterAll(async () => {
    prism?.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs every operation of the document', async () => {
    const { document } = await generateDocument({ strict: true });
    const operations = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(result.requests).toBe(operations);
    expect(result.failures).toEqual([]);
  });

  it('gets 2xx everywhere but where a 4xx is meant, and never a 5xx', () => {
    const unexpected = result.exchanges
      .filter((exchange) => exchange.status >= 300 && MEANT[exchange.request]?.status !== exchange.status)
      .map((exchange) => `${exchange.request} → ${exchange.status} ${exchange.body}`);
    expect(unexpected).toEqual([]);
    const met = new Set(result.exchanges.map((exchange) => `${exchange.request} ${exchange.status}`));
    for (const [request, { status }] of Object.entries(MEANT)) expect(met, request).toContain(`${request} ${status}`);
  });

  it('goes through a Prism that checks: a request the document forbids is its 422, with the violation named', async () => {
    const response = await fetch(`${prism!.url}/v2/users?sort=sideways`, { headers: { authorization: `Bearer ${WRITE_TOKEN}` } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('sort');
  });

  it('breaks the document nowhere: Prism finds no violation in any request or response', () => {
    const violated = result.exchanges
      .filter((exchange) => exchange.violations)
      .map((exchange) => `${exchange.request}: ${exchange.violations}`);
    expect(violated).toEqual([]);
  });
});
