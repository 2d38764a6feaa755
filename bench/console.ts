/**
 * The console (docs/performance.md "Console": what is measured, how, and why): per screen, the time until it is
 * interactive in Debian's Chromium, cold and warm, and the read units of the API calls it makes, each replayed through
 * its handler in this process, metered; over the list dataset in a table of its own, a fresh process per size (this
 * file with BENCH_CONSOLE_CHILD set), the service run as `npm start` runs it (support/stack.ts). And the console's
 * JavaScript and CSS gzipped.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { childPerSize, type ChildSizes, type ChildSpec } from './support/tables';
import { exitOnError, median, progress, projectRoot, round, runNode, sizeLabel, sleep, summarize } from './support/util';

/** The first screen interactive within 1 s, each screen's calls reading about a page, ≤ 150 KB gzipped. */
export const CONSOLE_GOALS = { interactiveMs: 1000, pages: 2, gzipKb: 150 } as const;
/** How long the page stays settled before it counts as settled (a gap between two requests is shorter). */
const QUIET_MS = 300;
const SETTLE_TIMEOUT_MS = 60_000;

/** The screens measured: the overview, the largest department's page, the users and departments lists. */
const screenRoutes = (largestDepartment: string) => [
  { screen: 'overview', route: '/' },
  { screen: 'department', route: `/departments/${encodeURIComponent(largestDepartment)}` },
  { screen: 'users', route: '/users' },
  { screen: 'departments', route: '/departments' },
];

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

/** The console built as its bundling builds it (console/vite.config.ts), each JavaScript and CSS file gzipped at level 9. */
export async function measureConsoleSize() {
  const outDir = mkdtempSync(join(tmpdir(), 'console-bench-'));
  try {
    const vite = join(projectRoot, 'node_modules', '.bin', 'vite');
    const { code, err } = await runNode([vite, 'build', '--config', 'console/vite.config.ts', '--outDir', outDir, '--emptyOutDir'], {});
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

export const measureConsole = (env: Record<string, string>, sizes: ChildSizes) =>
  childPerSize<ConsoleRow>(env, 'console', 'console.ts', sizes);

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
  const { rawClient } = await import('../test/support/measure/dataset');
  const { loadListDataset } = await import('./support/list-dataset');
  const { meterCapacity } = await import('../test/support/measure/capacity-meter');
  const { metered } = await import('../test/support/measure/handler-call');
  const { startStack, WRITE_TOKEN } = await import('./support/stack');
  const { createRouter } = await import('../lib/http/router');
  const { routes } = await import('../lib/routes');
  const { launchChromium } = await import('../test/support/browser');

  const client = rawClient();
  const data = await loadListDataset(client, table, { users, departments, prefix: `c${size}-` });
  client.destroy();
  // No background jobs: their polling would load the machine the screens are timed on.
  const stack = await startStack(process.env as Record<string, string>, table, { background: false });
  const { host, url: base } = stack;
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
      const link = `${base}/console#token=${encodeURIComponent(WRITE_TOKEN)}`;
      if (route !== '/') {
        // Signed in by the link first; then the screen's own link, a page load of its own.
        await page.goto(link);
        await page.waitForFunction(() => location.hash === '#/');
        await watched.settle();
        await page.goto('about:blank');
      }
      const sandboxesBefore = host.coldStarts().length;
      if (cold) {
        host.redeploy(stack.deployed);
        await sleep(200); // the idle sandboxes end
      }
      watched.clear();
      await page.goto(route === '/' ? link : `${base}/console#${route}`);
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
    const body = request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
    const invocation = { params: match.pathParameters, query: Object.fromEntries(url.searchParams), body, rawPath: url.pathname };
    const { status, capacity } = await metered(name, invocation, 10_000);
    return { name, status, rcu: capacity.rcu, calls: capacity.calls };
  };
  // Each handler loaded and connected before it is metered, as list-scale.ts does (a cold handler reads the same).
  await replay({ method: 'GET', url: `${base}/v2/users?count=1` });
  const page = await replay({ method: 'GET', url: `${base}/v2/users` });
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
    const mismatched = api.flatMap((request, i) =>
      request.status === replayed[i].status ? [] : [`${request.url} (${request.status}, replayed ${replayed[i].status})`],
    );
    const rcu = round(replayed.reduce((n, r) => n + r.rcu, 0));
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
      mismatched.length > 0 && `${mismatched.length} replay(s) answered otherwise than the browser's request: ${mismatched.join(', ')}`,
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
  await stack.close();
  const problems = stack.problems();
  if (problems.some((p) => p.startsWith('refused by its role')))
    throw new Error(`AWS calls refused by their function's role:\n${problems.join('\n')}`);
  for (const row of rows) row.note = [row.note, stack.problemNote()].filter(Boolean).join('; ') || undefined;
  process.stdout.write(`${JSON.stringify(rows)}\n`);
}

if (process.env.BENCH_CONSOLE_CHILD) exitOnError(child());
