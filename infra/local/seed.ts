/**
 * `npm run seed`: fills a running local stack with test data through its public API (`--help` says how).
 *
 * Safe to run again: every id is derived from `--prefix` and a number, and every write carries an
 * Idempotency-Key derived from the request itself. Each item is looked up first and skipped when it is already
 * there, so a second run with the same arguments makes nothing and a run that stopped is finished by the next.
 * A write that fails in transit (a 5xx, a timeout, a lost connection) may have committed, so it is repeated with
 * the same key, which the service answers with the first answer; a 409 after such a failure means the first
 * attempt did commit (or still runs), which a look-up settles. A 202 `applying` answer means committed and
 * finishing in the background: the seed polls the resource it names until it is done.
 *
 * Requests run a few at a time (`--concurrency`), and bulk moves and group creates, each already many
 * transactions side by side on the service, one at a time, so that a 2-core machine running the stack stays
 * usable and a large change is not slowed past its request's time by the next.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { keptWriteToken, localDataDir, tokensFile, TokensFileError } from './tokens';

const HELP = `npm run seed -- [options]: fills the local stack (npm start) with test data through its API.

  --users N          users to make (default 100); nine in ten join a department, 1,000 at a time (E3)
  --departments N    departments to make (default 5)
  --groups N         groups to make (default 3): group i holds every user whose number is a multiple of i + 2
  --prefix P         the ids' prefix (default "seed"): users P-u0.., departments P-d0.., groups P-g0..
  --concurrency N    requests at a time (default 4; bulk moves and group creates one at a time)
  --url URL          the API (default http://127.0.0.1:$PORT, PORT defaulting to 3000)
  --token T          the write token; default ADMIN_API_TOKEN, else the one npm start keeps in
                     <data dir>/tokens.json (LOCAL_DATA_DIR, default .local/)

Run it again with the same arguments to finish a run that stopped: what is there is found and skipped,
and nothing is made twice. Progress goes to stderr (plain lines when it is not a terminal), the summary to stdout.`;

const ROLES = ['member', 'member', 'member', 'manager', 'admin', 'guest'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Hamilton', 'Liskov', 'Knuth', 'Ritchie', 'Goldberg', 'Allen', 'Wing'];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette'];
const GROUP_NAMES = ['Designers', 'On-call', 'Mentors', 'Book club', 'Security champions', 'Release managers'];
const DEPARTMENT_NAMES = ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Design', 'Research', 'Marketing', 'People', 'Operations'];
/** E3's limit per request. */
const MOVE_BATCH = 1000;
/** Past the gateway's own 30 s integration timeout, which answers 503 itself. */
const REQUEST_TIMEOUT_MS = 35_000;
/** How long an item's transient failures are retried: longer than a timed-out request's key stays in progress. */
const RETRY_FOR_MS = 180_000;
/**
 * How long a change answered 202 may take to finish in the background, and how long an attempt lost in transit
 * may keep its item's id or key (a hidden group create's lease is 5 minutes, then a sweep each minute).
 */
const APPLYING_FOR_MS = 600_000;

/** A reason to stop, said in one line. */
class SeedError extends Error {}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Whether the seed got past its checks and began to write: a stop then leaves work for the next run. */
let writing = false;

/** Whether a bar is drawn on the terminal's last line, which a note or the summary must first end. */
let barOpen = false;

/** A line for the person watching, below the bar (which redraws under it). */
function say(line: string): void {
  if (barOpen) process.stderr.write('\n');
  barOpen = false;
  process.stderr.write(`${line}\n`);
}

interface Progress {
  tick(count?: number): void;
  finish(): void;
}

/**
 * A bar redrawn in place on a terminal; elsewhere (a CI log, a pipe) a plain line at each tenth and at the end,
 * so that no `\r` lands in a file.
 */
function progress(label: string, total: number, out: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let done = 0;
  const counts = () => `${label.padEnd(12)} ${String(done).padStart(String(total).length)}/${total}`;
  if (!out.isTTY) {
    let tenthsShown = 0;
    out.write(`${counts()}\n`);
    return {
      tick(count = 1) {
        done += count;
        const tenths = total === 0 ? 10 : Math.floor((done * 10) / total);
        if (tenths > tenthsShown && done < total) out.write(`${counts()}\n`);
        tenthsShown = tenths;
      },
      finish: () => out.write(`${counts()} in ${duration(Date.now() - started)}\n`),
    };
  }
  let drawnAt = 0;
  const draw = () => {
    drawnAt = Date.now();
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const line = `${label.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${duration(drawnAt - started)}`;
    out.write(`\r${line.slice(0, (out.columns || 80) - 1)}\x1b[K`);
    barOpen = true;
  };
  draw();
  return {
    tick(count = 1) {
      done += count;
      if (Date.now() - drawnAt >= 100) draw();
    },
    finish() {
      draw();
      out.write('\n');
      barOpen = false;
    },
  };
}

/** Runs `task` for each item, at most `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
  location: string | null;
  /** Seconds, from a 429's Retry-After. */
  retryAfter?: number;
}

type Outcome = 'made' | 'found';

interface Tally {
  made: number;
  found: number;
}

/** The service over HTTP, with the seed's retry rules. */
class Client {
  readonly retries = new Map<string, number>();
  backgroundChanges = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  /** One exchange; a lost connection or a timeout is an answer of status 0. */
  private async once(method: string, path: string, body: unknown, key: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key) headers['idempotency-key'] = key;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      } catch {
        parsed = { detail: text.slice(0, 200) };
      }
      const retryAfter = Number(response.headers.get('retry-after')) || undefined;
      return { status: response.status, body: parsed, location: response.headers.get('location'), retryAfter };
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timeout' : `connection (${(error as Error).message})`;
      return { status: 0, body: { detail: reason }, location: null };
    }
  }

  /**
   * The first answer that is not a transient failure (5xx, 429, timeout, lost connection), each repeated with
   * the same key; `uncertain` when an earlier attempt failed in transit and so may have committed.
   */
  async request(method: string, path: string, options: { body?: unknown; key?: string; until?: number } = {}) {
    const until = options.until ?? Date.now() + RETRY_FOR_MS;
    let uncertain = false;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(method, path, options.body, options.key);
      const transient = answer.status === 0 || answer.status === 429 || answer.status >= 500;
      if (!transient || Date.now() >= until) return { answer, uncertain };
      uncertain = true;
      const reason = answer.status === 0 ? String(answer.body?.detail).split(' ')[0] : String(answer.status);
      this.retries.set(reason, (this.retries.get(reason) ?? 0) + 1);
      const backoff = Math.min(500 * 2 ** attempt, 10_000) * (0.5 + Math.random());
      await pause(Math.max((answer.retryAfter ?? 0) * 1000, backoff));
    }
  }

  async get(path: string): Promise<Answer> {
    const { answer } = await this.request('GET', path);
    if (answer.status !== 200 && answer.status !== 404) throw failure('GET', path, answer);
    return answer;
  }

  /** Polls a resource a 202 named until its background work is done (a group without its members: a page less). */
  async untilApplied(resource: string): Promise<void> {
    const until = Date.now() + APPLYING_FOR_MS;
    const path = /^\/v2\/groups\/[^/?]+$/.test(resource) ? `${resource}?users=false` : resource;
    for (;;) {
      const answer = await this.get(path);
      if (answer.status === 200 && answer.body?.bulk_status !== 'applying') return;
      if (Date.now() >= until)
        throw new SeedError(`${resource} is still applying after ${duration(APPLYING_FOR_MS)}; run the seed again later`);
      await pause(1000);
    }
  }

  /**
   * A write that makes one item, safe to repeat: it is made (or was, by an earlier attempt), or `exists` finds
   * it there already.
   */
  async write(method: string, path: string, body: unknown, exists?: () => Promise<boolean>): Promise<Outcome> {
    const key = idempotencyKey(method, path, body);
    const until = Date.now() + APPLYING_FOR_MS;
    let uncertain = false;
    let said = false;
    for (;;) {
      const sent = await this.request(method, path, { body, key });
      const { answer } = sent;
      uncertain ||= sent.uncertain;
      if (answer.status === 202 && answer.body?.status === 'applying') {
        this.backgroundChanges++;
        await this.untilApplied(String(answer.body.resource ?? answer.location));
        return 'made';
      }
      if (answer.status >= 200 && answer.status < 300) return 'made';
      if (answer.status !== 409) throw failure(method, path, answer);
      if (exists && (await exists())) return uncertain ? 'made' : 'found';
      // The same key still running (here or in a run that stopped) answers 409 until it ends. So does an id taken
      // by an item not yet visible: a large group create stays hidden until it is published, or rolled back once
      // its lease has passed (its request may have died, here or in a run that stopped); a repeat then makes it.
      const stillRunning = /still running/i.test(String(answer.body?.detail));
      const hiddenId = exists !== undefined && answer.body?.field === 'id';
      if (!(uncertain || stillRunning || hiddenId)) throw failure(method, path, answer);
      if (Date.now() >= until) {
        const waited = `an earlier attempt still holds it after ${duration(APPLYING_FOR_MS)}`;
        throw new SeedError(`${failure(method, path, answer).message} (${waited})`);
      }
      if (!said) say(`${method} ${path}: an earlier attempt is still under way on the service; waiting for it to end`);
      said = true;
      await pause(5000);
    }
  }
}

function failure(method: string, path: string, answer: Answer): SeedError {
  const what = answer.status === 0 ? String(answer.body?.detail) : `answered ${answer.status}`;
  const detail = answer.body?.detail ?? answer.body?.message ?? answer.body?.title;
  return new SeedError(`${method} ${path} ${what}${answer.status && detail ? `: ${String(detail)}` : ''}`);
}

/** The same request always gets the same key, and another request another key (never a 422 for reuse). */
function idempotencyKey(method: string, path: string, body: unknown): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([method, path, body]))
    .digest('base64url')
    .slice(0, 22);
  return `seed.${method}.${hash}`;
}

function count(raw: string | undefined, name: string, minimum = 0): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new SeedError(`--${name} takes an integer of at least ${minimum}, got "${raw}"`);
  return value;
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100' },
      departments: { type: 'string', default: '5' },
      groups: { type: 'string', default: '3' },
      prefix: { type: 'string', default: 'seed' },
      concurrency: { type: 'string', default: '4' },
      url: { type: 'string', default: `http://127.0.0.1:${process.env.PORT?.trim() || 3000}` },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(values.prefix)) throw new SeedError('--prefix takes 1-40 letters, digits, _ or -');
  const dataDir = localDataDir(process.env, fileURLToPath(new URL('../../', import.meta.url)));
  const token = values.token
    ? { value: values.token, from: '--token' }
    : process.env.ADMIN_API_TOKEN?.trim()
      ? { value: process.env.ADMIN_API_TOKEN.trim(), from: 'ADMIN_API_TOKEN' }
      : { value: keptWriteToken(dataDir), from: tokensFile(dataDir) };
  return {
    users: count(values.users, 'users'),
    departments: count(values.departments, 'departments'),
    groups: count(values.groups, 'groups'),
    concurrency: count(values.concurrency, 'concurrency', 1),
    prefix: values.prefix,
    url: values.url.replace(/\/+$/, ''),
    token,
  };
}

/** Clear words for the two mistakes a newcomer makes first: no stack running, or another token. */
async function preflight(client: Client, url: string, token: { value: string | undefined; from: string }): Promise<void> {
  const health = await client.request('GET', '/v2/health', { until: Date.now() + 5_000 });
  if (health.answer.status !== 200)
    throw new SeedError(
      `nothing answers at ${url} (${failure('GET', '/v2/health', health.answer).message}): start it with npm start, or pass --url`,
    );
  if (!token.value) throw new SeedError(`no token: none in ${token.from} (npm start keeps it there); pass --token or set ADMIN_API_TOKEN`);
  const { answer } = await client.request('GET', '/v2/users?count=1');
  if (answer.status === 401) {
    throw new SeedError(`${url} refused the token from ${token.from}: pass the one npm start printed with --token or ADMIN_API_TOKEN`);
  }
  if (answer.status !== 200) throw failure('GET', '/v2/users?count=1', answer);
}

async function main() {
  const started = Date.now();
  const options = readOptions();
  const { prefix, concurrency } = options;
  const client = new Client(options.url, options.token.value);
  await preflight(client, options.url, options.token);
  writing = true;
  const tallies = new Map<string, Tally>();
  const tally = (kind: string, outcome: Outcome, n = 1) => {
    const entry = tallies.get(kind) ?? { made: 0, found: 0 };
    entry[outcome] += n;
    tallies.set(kind, entry);
  };
  const userId = (u: number) => `${prefix}-u${u}`;
  const departmentId = (d: number) => `${prefix}-d${d}`;
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);
  const found = async (path: string) => (await client.get(path)).status === 200;
  /** A step over numbered items: each looked up, then made unless it is there. */
  const step = async (kind: string, total: number, parallel: number, item: (i: number, bar: Progress) => Promise<void>) => {
    tallies.set(kind, { made: 0, found: 0 });
    const bar = progress(kind, total);
    await eachLimited(numbers(total), parallel, (i) => item(i, bar));
    bar.finish();
  };

  try {
    await step('departments', options.departments, concurrency, async (d, bar) => {
      const path = `/v2/departments/${departmentId(d)}`;
      const name = `${DEPARTMENT_NAMES[d % DEPARTMENT_NAMES.length]} ${Math.floor(d / DEPARTMENT_NAMES.length) + 1}`;
      tally(
        'departments',
        (await found(path)) ? 'found' : await client.write('POST', '/v2/departments', { id: departmentId(d), name }, () => found(path)),
      );
      bar.tick();
    });

    // Where each user is now, to move only those not yet where they belong.
    const departmentOf = new Map<string, unknown>();
    const today = new Date().setUTCHours(0, 0, 0, 0); // the same bodies, hence the same keys, all day
    await step('users', options.users, concurrency, async (u, bar) => {
      const id = userId(u);
      const path = `/v2/users/${id}`;
      const existing = await client.get(path);
      if (existing.status === 200) {
        departmentOf.set(id, existing.body?.department_id);
        tally('users', 'found');
      } else {
        const user = {
          id,
          email: `${id}@example.com`,
          first_name: FIRST_NAMES[u % FIRST_NAMES.length],
          last_name: LAST_NAMES[(u * 7) % LAST_NAMES.length],
          account_role: ROLES[u % ROLES.length],
          activated: u % 4 !== 0,
          last_login: u % 5 === 0 ? null : new Date(today - u * 3_600_000).toISOString(),
        };
        const outcome = await client.write('POST', '/v2/users', user, async () => {
          const answer = await client.get(path);
          departmentOf.set(id, answer.body?.department_id);
          return answer.status === 200;
        });
        tally('users', outcome);
      }
      bar.tick();
    });

    // Nine users in ten join a department (round robin) through E3; the tenth stay outside, so E1 and the
    // all-users list differ.
    const placed = numbers(options.users).filter((u) => u % 10 !== 9 && options.departments > 0);
    const moves: Array<{ department: string; ids: string[] }> = [];
    for (let d = 0; d < options.departments; d++) {
      const ids = placed.filter((u) => u % options.departments === d).map(userId);
      const moving = ids.filter((id) => departmentOf.get(id) !== departmentId(d));
      tally('memberships', 'found', ids.length - moving.length);
      for (let start = 0; start < moving.length; start += MOVE_BATCH) {
        moves.push({ department: departmentId(d), ids: moving.slice(start, start + MOVE_BATCH) });
      }
    }
    const memberBar = progress('memberships', placed.length);
    memberBar.tick(tallies.get('memberships')?.found ?? 0);
    await eachLimited(moves, 1, async ({ department, ids }) => {
      await client.write('POST', `/v2/departments/${department}/users`, { user_ids: ids });
      tally('memberships', 'made', ids.length);
      memberBar.tick(ids.length);
    });
    memberBar.finish();

    // Group g gets every user whose number is a multiple of g + 2, so groups overlap and differ in size; then one
    // user more through G4 (a repeat of it changes nothing). Group names are unique: they carry the prefix.
    await step('groups', options.groups, 1, async (g, bar) => {
      const id = `${prefix}-g${g}`;
      const path = `/v2/groups/${id}?users=false`;
      const exists = async () => {
        const answer = await client.get(path);
        if (answer.status === 200 && answer.body?.bulk_status === 'applying') await client.untilApplied(path);
        return answer.status === 200;
      };
      let outcome: Outcome = 'found';
      if (!(await exists())) {
        const group = {
          id,
          name: `${GROUP_NAMES[g % GROUP_NAMES.length]} ${Math.floor(g / GROUP_NAMES.length) + 1} (${prefix})`,
          description: `Seeded group ${g + 1}`,
          user_ids: numbers(options.users)
            .filter((u) => u % (g + 2) === 0)
            .map(userId),
        };
        outcome = await client.write('POST', '/v2/groups', group, exists);
      }
      if (options.users > 1) await client.write('POST', `/v2/groups/${id}/users/${userId(1)}`, undefined);
      tally('groups', outcome);
      bar.tick();
    });
  } catch (error) {
    if (barOpen) process.stderr.write('\n');
    summary(options, tallies, client, started, false);
    throw error;
  }
  summary(options, tallies, client, started, true);
}

function summary(options: ReturnType<typeof readOptions>, tallies: Map<string, Tally>, client: Client, started: number, finished: boolean) {
  const rows = [...tallies];
  const made = rows.reduce((sum, [, t]) => sum + t.made, 0);
  const lines = [`Seed of ${options.url} (ids ${options.prefix}-…) took ${duration(Date.now() - started)}:`];
  for (const [kind, t] of rows) {
    lines.push(`  ${kind.padEnd(12)} ${String(t.made).padStart(6)} made  ${String(t.found).padStart(6)} already there`);
  }
  if (finished && made === 0) lines.push('  Nothing new: everything asked for was already there.');
  const retries = [...client.retries].map(([reason, n]) => `${n} × ${reason}`).join(', ');
  if (retries) lines.push(`  Retried with the same Idempotency-Key after ${retries}.`);
  if (client.backgroundChanges) lines.push(`  ${client.backgroundChanges} changes answered 202 and finished in the background.`);
  console.log(lines.join('\n'));
}

main().catch((error: Error) => {
  const mistake =
    error instanceof SeedError ||
    error instanceof TokensFileError ||
    String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
  if (!mistake) console.error(error);
  const hint = writing ? '\nWhat it made stays; run it again with the same arguments to finish.' : ' (npm run seed -- --help)';
  console.error(`\nseed stopped: ${error.message}${hint}`);
  process.exit(1);
});
