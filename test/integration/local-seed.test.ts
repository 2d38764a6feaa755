/**
 * `npm run seed` against `npm start`, as a newcomer runs them: the seed finds the token npm start keeps with its
 * data, a second run with the same arguments makes nothing (the counts and the audit trail stay as they were,
 * and its summary says so), a piped output carries no `\r`, a change that committed but was answered 500 is
 * repeated with its Idempotency-Key and counted once, a 202 `applying` is waited for, and a restart on the same
 * data directory keeps the tokens, so a saved `TOKEN=` still works.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, START_TIMEOUT_MS, startService, stopService, type StartedService } from '../support/npm-start';

const SEED_TIMEOUT_MS = 300_000;
/** As a newcomer's shell has it: no token set, so both find the one npm start keeps. */
const NO_TOKENS = { ADMIN_API_TOKEN: undefined, ADMIN_API_READ_TOKEN: undefined };

interface SeedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runSeed(dataDir: string, args: string[]): Promise<SeedRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, LOCAL_DATA_DIR: dataDir, ...NO_TOKENS })) {
    if (value !== undefined) env[name] = value;
  }
  const child = spawn(join(projectRoot, 'node_modules/.bin/tsx'), ['infra/local/seed.ts', ...args], { cwd: projectRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The summary's row of one kind: what it made and what it found there. */
function row(run: SeedRun, kind: string): { made: number; found: number } {
  const match = new RegExp(`^\\s+${kind}\\s+(\\d+) made\\s+(\\d+) already there$`, 'm').exec(run.stdout);
  if (!match) throw new Error(`no ${kind} row in:\n${run.stdout}\n${run.stderr}`);
  return { made: Number(match[1]), found: Number(match[2]) };
}

const tokenLine = (banner: string, which: 'write' | 'read') => new RegExp(`${which} token\\s+(\\S+)\\s+\\((new|kept)\\b`).exec(banner);

describe('npm run seed against npm start', () => {
  let dataDir: string;
  let service: StartedService | undefined;
  let baseUrl: string;
  let writeToken: string;
  let readToken: string;

  const get = async (path: string, token = writeToken) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  const total = async (path: string) => (await get(`${path}?count=1`)).total as number;
  const auditEntries = async () => {
    let count = 0;
    for (let cursor: unknown = undefined; ;) {
      const page = await get(`/v2/audit?count=1000${cursor ? `&cursor=${encodeURIComponent(String(cursor))}` : ''}`);
      count += (page.entries as unknown[]).length;
      if (!page.next_cursor) return count;
      cursor = page.next_cursor;
    }
  };
  const counts = async () => ({
    users: await total('/v2/users'),
    departments: await total('/v2/departments'),
    members: await total('/v2/departments/users'),
    groups: await total('/v2/groups'),
    audit: await auditEntries(),
  });

  beforeAll(async () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'local-seed-')), 'data');
    service = startService(dataDir, NO_TOKENS);
    baseUrl = await service.url;
    const write = tokenLine(service.output(), 'write');
    const read = tokenLine(service.output(), 'read');
    expect(write?.[2], service.output()).toBe('new');
    expect(read?.[2]).toBe('new');
    [writeToken, readToken] = [write![1], read![1]];
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    if (service) await stopService(service.child);
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  }, 30_000);

  it(
    'makes what it is asked for, then, run again with the same arguments, makes nothing and says so; no \\r when piped',
    async () => {
      // Two at a time: fewer cold sandboxes to start on a shared machine; the defaults are no different otherwise.
      const args = ['--users', '60', '--departments', '3', '--concurrency', '2', '--url', baseUrl];
      const first = await runSeed(dataDir, args);
      expect(first.code, first.stderr).toBe(0);
      expect(row(first, 'departments')).toEqual({ made: 3, found: 0 });
      expect(row(first, 'users')).toEqual({ made: 60, found: 0 });
      expect(row(first, 'memberships')).toEqual({ made: 54, found: 0 });
      expect(row(first, 'groups')).toEqual({ made: 3, found: 0 });
      expect(first.stdout).toMatch(/took \d/);
      const after = await counts();
      expect(after).toMatchObject({ users: 60, departments: 3, members: 54, groups: 3 });
      // Group g holds every user whose number is a multiple of g + 2, and seed-u1.
      expect((await get('/v2/groups/seed-g0?users=false')).user_count).toBe(31);

      const second = await runSeed(dataDir, args);
      expect(second.code, second.stderr).toBe(0);
      for (const [kind, n] of [
        ['departments', 3],
        ['users', 60],
        ['memberships', 54],
        ['groups', 3],
      ] as const) {
        expect(row(second, kind)).toEqual({ made: 0, found: n });
      }
      expect(second.stdout).toContain('Nothing new: everything asked for was already there.');
      // Nothing written: not one audit entry more.
      expect(await counts()).toEqual(after);

      for (const run of [first, second]) {
        expect(run.stdout + run.stderr).not.toContain('\r');
        expect(run.stderr).toMatch(/^users +60\/60 in \d/m);
      }
    },
    SEED_TIMEOUT_MS,
  );

  it(
    'repeats a change answered 500 after it committed with the same Idempotency-Key, counting it once, and waits out a 202',
    async () => {
      // Between the seed and the service: the first create of faulty-u1 reaches the service and commits, but the
      // seed is answered 500; the first create of faulty-g0 is answered 202 applying, as a slow change is.
      const keys: string[] = [];
      let userFailed = false;
      let groupDeferred = false;
      const proxy: Server = createServer((request: IncomingMessage, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host')) as Record<string, string>;
          const forwarded = fetch(`${baseUrl}${request.url}`, { method: request.method, headers, body: body.length ? body : undefined });
          forwarded
            .then(async (answer) => {
              const answerBody = Buffer.from(await answer.arrayBuffer());
              if (request.method === 'POST' && request.url === '/v2/users' && text.includes('"faulty-u1"')) {
                keys.push(String(request.headers['idempotency-key']));
                if (!userFailed && answer.status === 201) {
                  userFailed = true;
                  response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
                  return;
                }
              }
              if (request.method === 'POST' && request.url === '/v2/groups' && !groupDeferred && answer.status === 201) {
                groupDeferred = true;
                const resource = '/v2/groups/faulty-g0';
                response.writeHead(202, { 'content-type': 'application/json', location: resource });
                response.end(JSON.stringify({ status: 'applying', resource }));
                return;
              }
              const passed: Record<string, string> = {};
              answer.headers.forEach((value, name) => {
                if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) passed[name] = value;
              });
              response.writeHead(answer.status, passed).end(answerBody);
            })
            .catch((error: Error) => response.writeHead(502).end(error.message));
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      try {
        const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
        const run = await runSeed(dataDir, [
          '--users',
          '20',
          '--departments',
          '2',
          '--groups',
          '1',
          '--prefix',
          'faulty',
          '--url',
          proxyUrl,
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(userFailed && groupDeferred).toBe(true);
        expect(row(run, 'users')).toEqual({ made: 20, found: 0 });
        expect(row(run, 'groups')).toEqual({ made: 1, found: 0 });
        expect(run.stdout).toContain('Retried with the same Idempotency-Key after 1 × 500.');
        expect(run.stdout).toContain('1 changes answered 202 and finished in the background.');
        expect(keys.length).toBeGreaterThanOrEqual(2);
        expect(new Set(keys).size).toBe(1);
        // Made once: one createUser in its audit trail.
        const audit = await get('/v2/audit?query=resource_id:faulty-u1,operation:createUser');
        expect((audit.entries as unknown[]).length).toBe(1);
        expect((await get('/v2/groups/faulty-g0?users=false')).user_count).toBe(11);
      } finally {
        await new Promise((resolve) => proxy.close(resolve));
      }
    },
    SEED_TIMEOUT_MS,
  );

  it(
    'keeps both tokens when npm start runs again on the same data directory',
    async () => {
      await stopService(service!.child);
      service = startService(dataDir, NO_TOKENS);
      baseUrl = await service.url;
      expect(tokenLine(service.output(), 'write')?.slice(1)).toEqual([writeToken, 'kept']);
      expect(tokenLine(service.output(), 'read')?.slice(1)).toEqual([readToken, 'kept']);
      // A saved TOKEN= still works, on the same data.
      expect((await get('/v2/users?count=1', writeToken)).total).toBe(80);
      expect((await get('/v2/groups?count=1', readToken)).total).toBe(4);
    },
    // A stop (at most 15 s) and a start.
    2 * START_TIMEOUT_MS + 30_000,
  );
});
