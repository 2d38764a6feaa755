/**
 * The console (its quality bars: docs/performance.md "Console"): per screen, the time until it is interactive
 * in Debian's Chromium, the API calls it makes and the read units they cost, over the list dataset
 * (support/list-dataset.ts) loaded into a table of its own; and the console's JavaScript and CSS gzipped.
 *
 * Each size runs in a fresh process (this file with BENCH_CONSOLE_CHILD set, as list-scale.ts does): it loads the
 * dataset, then runs the service as `npm start` does — every function from its bundle in sandboxes of its own on the
 * Lambda runtime's Node, each AWS call checked against its role, behind the local gateway — and opens the console.
 *
 * - **Time to interactive**: from navigation start until the screen is settled — its heading shown, no request in
 *   flight and every `.busy` empty (as test/support/console.ts `settled`) for QUIET_MS — taken in the page as the later
 *   of the last response's end (Resource Timing) and the last change to the document (a MutationObserver). "Cold":
 *   every sandbox ended just before (the function host's redeploy), so each function the screen calls starts anew;
 *   "warm": right after. Each run is a browser context of its own. The overview is opened by the link `npm start`
 *   prints (`/console#token=…`: signing in is part of its first screen), with an empty cache; another screen by its own
 *   link in a tab signed in by that link just before (a page load of its own, the token in the tab's session, the
 *   console's script and style cached by that sign-in: they are immutable, as a returning administrator has them).
 * - **Read units**: each API request the browser made is replayed, with its method, path, query and body, through the
 *   route's handler in this process under the bench's capacity meter (support/capacity.ts, as list-scale.ts meters a
 *   page) — the same code the bundles are built from, on the same table, and every request a screen makes only reads
 *   (the write probe is a dry run), so the replay reads what the browser's request read. A replay whose status differs
 *   from the browser's is noted. "A page": listUsers' first page of 100, metered the same way in the same process.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { inTableOfItsOwn } from './support/dataset';
import { exitOnError, median, progress, projectRoot, round, runNode, sizeLabel, sleep, summarize } from './support/util';

/** The first screen interactive within 1 s, each screen's calls reading about a page, ≤ 150 KB gzipped. */
export const CONSOLE_GOALS = { interactiveMs: 1000, pages: 2, gzipKb: 150 } as const;
/** How long the page stays settled before it counts as settled (a gap between two requests is shorter). */
const QUIET_MS = 300;
const SETTLE_TIMEOUT_MS = 60_000;
const WRITE_TOKEN = 'bench-console-write-token';

/** The screens measured: the overview, the largest department's page, the users and departments lists. */
const screenRoutes = (largestDepartment: string) => [
  { screen: 'overview', route: '/' },
  { screen: 'department', route: `/departments/${encodeURIComponent(largestDepartment)}` },
  { screen: 'users', route: '/users' },
  { screen: 'departments', route: '/departments' },
];

export type ConsoleSizes = { users: number[]; departments: number; runs: number };

function newRow(screen: string, route: string, users: number) {
  return {
    ...{ screen, route, users, heading: '', runs: 0, cold_ms: null as number | null, warm_ms: null as number | null },
    ...{ cold_runs_ms: [] as number[], warm_runs_ms: [] as number[], cold_sandboxes: 0 },
    /** API calls of the first warm run: how many, by route, and their statuses. */
    ...{ api_calls: 0, routes: '', statuses: '', requests: [] as string[] },
    /** Read units of those calls (replayed, metered), of one 100-item page of listUsers, and the ratio. */
    ...{ rcu: null as number | null, page_rcu: null as number | null, pages: null as number | null, dynamodb_calls: '' },
    ...{ meets_interactive: false, meets_reads: false, meets_goal: false, note: undefined as string | undefined },
  };
}
export type ConsoleRow = ReturnType<typeof newRow>;

export type ConsoleSize = {
  files: Array<{ file: string; bytes: number; gzip_bytes: number }>;
  js_gzip_kb: number;
  css_gzip_kb: number;
  gzip_kb: number;
  budget_kb: number;
  meets_goal: boolean;
};

/** The console built as its bundling builds it (console/vite.config.ts), each JavaScript and CSS file gzipped at level 9. */
export async function measureConsoleSize(): Promise<ConsoleSize> {
  const outDir = mkdtempSync(join(tmpdir(), 'console-bench-'));
  try {
    const vite = join(projectRoot, 'node_modules', '.bin', 'vite');
    const { code, err } = await runNode([vite, 'build', '--config', 'console/vite.config.ts', '--outDir', outDir, '--emptyOutDir'], {
      env: process.env,
    });
    if (code !== 0) throw new Error(`console: vite build failed: ${err}`);
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(js|css)$/.test(file))
      .sort()
      .map((file) => {
        const content = readFileSync(join(outDir, file));
        return { file, bytes: content.length, gzip_bytes: gzipSync(content, { level: 9 }).length };
      });
    const kb = (pattern: RegExp) => round(files.filter((f) => pattern.test(f.file)).reduce((n, f) => n + f.gzip_bytes, 0) / 1024, 1);
    const gzipKb = kb(/\.(js|css)$/);
    return {
      ...{ files, js_gzip_kb: kb(/\.js$/), css_gzip_kb: kb(/\.css$/), gzip_kb: gzipKb, budget_kb: CONSOLE_GOALS.gzipKb },
      meets_goal: gzipKb <= CONSOLE_GOALS.gzipKb,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

type ChildSpec = { users: number; departments: number; runs: number };

export async function measureConsole(env: Record<string, string>, sizes: ConsoleSizes): Promise<ConsoleRow[]> {
  const rows: ConsoleRow[] = [];
  for (const users of sizes.users) {
    const spec: ChildSpec = { users, departments: sizes.departments, runs: sizes.runs };
    await inTableOfItsOwn(env, `${env.TABLE_NAME}-console-${users}`, async (table) => {
      progress(`console: ${users} users in ${sizes.departments} departments, in table ${table} (a fresh process)`);
      const { code, out } = await runNode(['--import', 'tsx', 'bench/console.ts'], {
        env: { ...process.env, ...env, TABLE_NAME: table, BENCH_CONSOLE_CHILD: JSON.stringify(spec) },
        show: 'progress',
      });
      if (code !== 0) throw new Error(`console: the child for ${users} users failed (exit ${code})`);
      rows.push(...(JSON.parse(out.trim().split('\n').pop()!) as ConsoleRow[]));
    });
  }
  return rows;
}

/** What the page itself records: when it last changed (read with Resource Timing at the end). */
const PAGE_PROBE = `(() => {
  const probe = (globalThis.__consoleBench = { lastChange: 0 });
  new MutationObserver(() => { probe.lastChange = performance.now(); })
    .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();`;

// What the functions given to page.evaluate see in the page (this project's types are Node's, not the DOM's).
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
};
declare const location: { hash: string };

type Recorded = { method: string; url: string; body?: string; status?: number };

/** A page whose requests are recorded and counted while in flight. */
function watch(page: Page) {
  const requests: Recorded[] = [];
  const pending = new Set<Request>();
  let lastActivity = performance.now();
  const byRequest = new Map<Request, Recorded>();
  page.on('request', (request) => {
    if (/^(data|about):/.test(request.url())) return;
    const recorded: Recorded = { method: request.method(), url: request.url(), body: request.postData() ?? undefined };
    requests.push(recorded);
    byRequest.set(request, recorded);
    pending.add(request);
    lastActivity = performance.now();
  });
  const done = (request: Request) => {
    pending.delete(request);
    lastActivity = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (response) => {
    const recorded = byRequest.get(response.request());
    if (recorded) recorded.status = response.status();
  });
  /** Waits until the screen is settled; answers its time to interactive from navigation start (ms) and its heading. */
  const settle = async () => {
    const deadline = performance.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      if (performance.now() > deadline) throw new Error(`not settled within ${SETTLE_TIMEOUT_MS} ms: ${[...pending].map((r) => r.url())}`);
      await sleep(25);
      if (pending.size > 0 || performance.now() - lastActivity < QUIET_MS) continue;
      const ready = await page.evaluate(
        () =>
          document.querySelector('main h1') !== null &&
          [...document.querySelectorAll('.busy')].every((element) => element.textContent === ''),
      );
      if (ready && pending.size === 0 && performance.now() - lastActivity >= QUIET_MS) break;
    }
    return page.evaluate(() => {
      const timing = (globalThis as unknown as { performance: { getEntriesByType(type: string): Array<{ responseEnd: number }> } })
        .performance;
      const responses = timing.getEntriesByType('resource').map((entry) => entry.responseEnd);
      const navigation = timing.getEntriesByType('navigation').map((entry) => entry.responseEnd);
      const probe = (globalThis as unknown as { __consoleBench: { lastChange: number } }).__consoleBench;
      return {
        ms: Math.max(probe.lastChange, ...responses, ...navigation),
        heading: document.querySelector('main h1')?.textContent ?? '',
      };
    });
  };
  return { requests, settle, clear: () => void requests.splice(0) };
}

async function child(): Promise<void> {
  const { users, departments, runs } = JSON.parse(process.env.BENCH_CONSOLE_CHILD!) as ChildSpec;
  const table = process.env.TABLE_NAME!;
  const size = sizeLabel(users);
  // lib/ modules only now (they read the environment on first use).
  const { rawClient } = await import('./support/dataset');
  const { loadListDataset } = await import('./support/list-dataset');
  const { measure, meterCapacity } = await import('./support/capacity');
  const { lambdaContext, loadHandler, routeEvent } = await import('./support/lambda');
  const { createRouter } = await import('../lib/http/router');
  const { routes, FALLBACK_FUNCTION } = await import('../lib/routes');
  const { prepareStack } = await import('../infra/local/prepare');
  const { resolveDeployment } = await import('../infra/local/deployment');
  const { awsCallChecker } = await import('../infra/local/aws-calls');
  const { startFunctionHost } = await import('../infra/local/functions');
  const { startGateway } = await import('../infra/local/gateway');
  const { launchChromium } = await import('../test/support/browser');

  const client = rawClient();
  const started = performance.now();
  const data = await loadListDataset(client, table, { users, departments, prefix: `c${size}-` });
  client.destroy();
  progress(
    `console ${size}: loaded ${data.items} items in ${round((performance.now() - started) / 1000, 0)} s; ` +
      `largest department ${data.largest.id} (${data.largest.users} users)`,
  );

  // As `npm start` runs the service (infra/local/start.ts): its default stack settings, the bundles, the role check.
  const prepared = await prepareStack(projectRoot, { reportEmailDomains: '*' });
  progress(`console ${size}: functions ${prepared.summary}`);
  const endpoints = {
    dynamodb: process.env.DYNAMODB_ENDPOINT!,
    s3: process.env.S3_ENDPOINT!,
    ses: process.env.SES_ENDPOINT!,
    sqs: process.env.SQS_ENDPOINT!,
  };
  const denied: string[] = [];
  const failures: string[] = [];
  let functions: ReturnType<typeof startFunctionHost> | undefined;
  const gateway = await startGateway({
    tokens: { write: WRITE_TOKEN },
    loadHandler: async (route) => functions!.handler(route.name),
    scimAuthorizer: (event, context) => functions!.handler('scimAuthorizer')(event, context),
    fallbackFunction: (event, context) => functions!.handler(FALLBACK_FUNCTION.handler)(event, context),
  });
  const deployed = resolveDeployment(prepared.deployment, {
    tableName: table,
    reportsBucket: process.env.REPORTS_BUCKET!,
    apiUrl: gateway.url,
    sqsEndpoint: endpoints.sqs,
  });
  const checker = awsCallChecker({
    functions: deployed,
    targets: endpoints,
    onDenied: (call) => denied.push(`${call.handler}: ${call.action} on ${call.resource}`),
  });
  functions = startFunctionHost({
    bundlesDir: prepared.bundlesDir,
    functions: deployed,
    endpointsFor: (fn) => checker.endpointsFor(fn),
    // Their log lines are not the bench's; a runtime error is kept for the row's note.
    output: (handler, line) => /ERROR|Task timed out|Runtime\./.test(line) && failures.push(`${handler}: ${line.slice(0, 200)}`),
  });
  const host = functions;
  const browser = await launchChromium();
  const router = createRouter(routes);
  const routeName = (method: string, url: string) => router.match(method, new URL(url).pathname)?.compiled.route.name;
  const isApi = (url: string) => new URL(url).pathname.startsWith('/v2/');

  /** One page load of `route`, cold (every sandbox ended first) or warm; answers its time and requests. */
  const open = async (route: string, cold: boolean) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await context.addInitScript(PAGE_PROBE);
      const page = await context.newPage();
      const watched = watch(page);
      const link = `${gateway.url}/console#token=${encodeURIComponent(WRITE_TOKEN)}`;
      if (route !== '/') {
        // Signed in by the link first; then the screen's own link, a page load of its own.
        await page.goto(link);
        await page.waitForFunction(() => location.hash === '#/');
        await watched.settle();
        await page.goto('about:blank');
      }
      const sandboxesBefore = host.coldStarts().length;
      if (cold) {
        host.redeploy(deployed);
        await sleep(200); // the idle sandboxes end
      }
      watched.clear();
      await page.goto(route === '/' ? link : `${gateway.url}/console#${route}`);
      const { ms, heading } = await watched.settle();
      return { ms: round(ms, 0), heading, requests: [...watched.requests], sandboxes: host.coldStarts().length - sandboxesBefore };
    } finally {
      await context.close();
    }
  };

  meterCapacity();
  /** The browser's API request again, through its handler in this process, metered. */
  const replay = async (request: Recorded) => {
    const url = new URL(request.url);
    const match = router.match(request.method, url.pathname)!;
    const name = match.compiled.route.name;
    const handler = await loadHandler(name);
    const query = Object.fromEntries(url.searchParams);
    const body = request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
    const event = { ...routeEvent(name, { params: match.pathParameters, query, body }), rawPath: url.pathname };
    const { result, capacity } = await measure(() => handler(event, lambdaContext(name)));
    return { name, status: result.statusCode, rcu: capacity.rcu, calls: capacity.calls };
  };
  // Each handler loaded and connected before it is metered, as list-scale.ts does (a cold handler reads the same).
  await replay({ method: 'GET', url: `${gateway.url}/v2/users?count=1` });
  const page = await replay({ method: 'GET', url: `${gateway.url}/v2/users` });
  progress(`console ${size}: a page (listUsers, 100 users) reads ${page.rcu} RCU`);

  const rows: ConsoleRow[] = [];
  for (const { screen, route } of screenRoutes(data.largest.id)) {
    const row = newRow(screen, route, users);
    const cold: Array<Awaited<ReturnType<typeof open>>> = [];
    const warm: Array<Awaited<ReturnType<typeof open>>> = [];
    for (let run = 0; run < runs; run++) {
      cold.push(await open(route, true));
      warm.push(await open(route, false));
      progress(`console ${size}: ${screen} run ${run + 1}/${runs}: cold ${cold.at(-1)!.ms} ms, warm ${warm.at(-1)!.ms} ms`);
    }
    const api = warm[0].requests.filter((request) => isApi(request.url));
    const replayed: Array<Awaited<ReturnType<typeof replay>>> = [];
    for (const request of api) replayed.push(await replay(request));
    const mismatched = api.filter((request, i) => request.status !== replayed[i].status);
    const rcu = round(
      replayed.reduce((n, r) => n + r.rcu, 0),
      1,
    );
    const byRoute = summarize(api.map((request) => routeName(request.method, request.url) ?? `unrouted ${request.method}`));
    Object.assign(row, {
      ...{ heading: warm[0].heading, runs, cold_runs_ms: cold.map((c) => c.ms), warm_runs_ms: warm.map((w) => w.ms) },
      ...{
        cold_ms: median(cold.map((c) => c.ms)),
        warm_ms: median(warm.map((w) => w.ms)),
        cold_sandboxes: median(cold.map((c) => c.sandboxes)),
      },
      ...{ api_calls: api.length, routes: byRoute, statuses: summarize(api.map((request) => String(request.status))) },
      requests: warm[0].requests.map(
        (request) => `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} ${request.status}`,
      ),
      ...{ rcu, page_rcu: page.rcu, pages: page.rcu > 0 ? round(rcu / page.rcu, 2) : null },
      dynamodb_calls: replayed.map((r) => `${r.name} ${r.rcu}: ${r.calls}`).join('; '),
    });
    row.meets_interactive = row.warm_ms !== null && row.warm_ms <= CONSOLE_GOALS.interactiveMs;
    row.meets_reads = row.pages !== null && row.pages <= CONSOLE_GOALS.pages;
    row.meets_goal = row.meets_interactive && row.meets_reads;
    const notes = [
      mismatched.length > 0 &&
        `${mismatched.length} replay(s) answered otherwise than the browser's request: ${mismatched.map((m) => m.url).join(', ')}`,
      new Set(warm.map((w) => w.requests.length)).size > 1 &&
        `request counts differ between runs: ${warm.map((w) => w.requests.length).join('/')}`,
    ].filter((note): note is string => typeof note === 'string');
    if (notes.length > 0) row.note = notes.join('; ');
    rows.push(row);
    progress(
      `console ${size}: ${screen} ("${row.heading}"): cold ${row.cold_ms} ms, warm ${row.warm_ms} ms, ${row.api_calls} API calls ` +
        `(${row.routes}), ${row.rcu} RCU = ${row.pages} pages`,
    );
  }
  await browser.close();
  await gateway.close();
  await host.close();
  await checker.close();
  if (denied.length > 0) throw new Error(`AWS calls refused by their function's role:\n${denied.join('\n')}`);
  if (failures.length > 0)
    for (const row of rows) row.note = [row.note, `function errors: ${failures.slice(0, 3).join(' | ')}`].filter(Boolean).join('; ');
  process.stdout.write(`${JSON.stringify(rows)}\n`);
}

if (process.env.BENCH_CONSOLE_CHILD) exitOnError(child());
