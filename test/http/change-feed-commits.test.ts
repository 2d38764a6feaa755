/**
 * The change feed when commits come late (lib/changes/feed.ts): a reader walking GET /v2/changes by cursor, with the
 * sequencer as `npm start` runs it (the StreamRouter's poller, from its bundle), gets every audit entry of the trail
 * exactly once
 *
 * - while two group creates of 1,000 users each (G3), a bulk move of 1,000 users (E3) and small moves (E2) run
 *   together: the large changes keep the host busy and push the small moves' commits back;
 * - while one move's transaction is held 15 s after it is sent (an SDK middleware, in this process: the route
 *   handlers run here for it), so that entries stamped after it reach the feed first: the feed gives it once it has
 *   committed, without walking past it.
 *
 * The users are written straight into the table (the store's builders, with their counters): no audit entries of
 * their own, and no minute of setup through the API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { directUsers as directUsersInto } from '../support/measure/dataset';
import { db, tableName } from '../../lib/db/client';
import { useApi } from '../support/api';
import { auditSince, createDepartment, unique } from '../support/fixtures';

/** The transaction to hold: the one whose audit entry names this resource, for this long. */
let hold: { resourceId: string; ms: number; heldAt?: number } | undefined;
type Client = { middlewareStack: { add: (...args: any[]) => void } };
(db() as unknown as Client).middlewareStack.add(
  (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: any }) => {
    const held = hold;
    // The input as the document client has it, or already marshalled: either way, an audit entry's put of that resource.
    const plain = (value: any) => value?.S ?? value;
    const audited = (args.input?.TransactItems ?? []).some(
      (item: any) => plain(item.Put?.Item?.type) === 'audit' && plain(item.Put?.Item?.resource_id) === held?.resourceId,
    );
    if (held && /^TransactWrite/.test(context.commandName ?? '') && audited && held.heldAt === undefined) {
      held.heldAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, held.ms));
    }
    return next(args);
  },
  { step: 'initialize', name: 'hold-a-commit' },
);
afterEach(() => {
  hold = undefined;
});

const api = useApi({ inProcess: { because: 'injects faults through the SDK client' } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The contract's bound: a change appears in the feed within 10 seconds of its request's answer. */
const APPEARS_WITHIN_MS = 10_000;

const directUsers = (prefix: string, count: number) => directUsersInto(tableName(), prefix, count);

interface Seen {
  entry: any;
  seenAt: number;
}

/** Walks the feed by cursor from `since` until `stopped()`, keeping when each entry's page arrived. */
function follow(since: string, stopped: () => boolean) {
  const seen: Seen[] = [];
  const done = (async () => {
    let cursor: string | undefined;
    while (!stopped()) {
      const page = await api.get(
        cursor ? `/v2/changes?count=100&cursor=${encodeURIComponent(cursor)}` : `/v2/changes?count=100&since=${since}`,
      );
      expect(page.status, page.text).toBe(200);
      const seenAt = Date.now();
      for (const entry of page.body.changes) seen.push({ entry, seenAt });
      cursor = page.body.next_cursor;
      if (page.body.count < 100) await sleep(250);
    }
  })();
  done.catch(() => undefined); // awaited by the test; a failed page must not go unhandled meanwhile
  return { seen, done };
}

/**
 * Once every request has answered: waits until the feed holds every entry of the trail since `since` and the trail
 * has stopped growing (a change answered 503 past the gateway's 30 s may still be writing), then checks that the
 * walk gave each of them exactly once. A walk from `since` may also give entries stamped just before it that reached
 * the feed after it (the documented superset), and nothing else.
 */
async function expectEveryEntryOnce(since: string, reader: ReturnType<typeof follow>, stop: () => void, lastAnswer: number) {
  let trail: any[] = [];
  let stableSince = Date.now();
  while (Date.now() < lastAnswer + 60_000) {
    const now = await auditSince(api, since);
    if (now.length !== trail.length) stableSince = Date.now();
    trail = now;
    const allSeen = trail.every((entry) => reader.seen.some((s) => s.entry.id === entry.id));
    if (trail.length > 0 && allSeen && Date.now() - stableSince > 2000) break;
    await sleep(500);
  }
  // A little longer, so that an entry given twice would have shown by now.
  await sleep(1000);
  stop();
  await reader.done;
  trail = await auditSince(api, since);
  const seenIds = reader.seen.map((s) => s.entry.id as string);
  const counts = new Map<string, number>();
  for (const id of seenIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect(
    [...counts].filter(([, n]) => n > 1).map(([id]) => id),
    'entries the feed gave twice',
  ).toEqual([]);
  expect(
    trail.filter((entry) => !counts.has(entry.id)).map((entry) => `${entry.operation} ${entry.resource_id} at ${entry.at}`),
    'audit entries the feed never gave',
  ).toEqual([]);
  const trailIds = new Set(trail.map((entry) => entry.id as string));
  expect(
    reader.seen.filter((s) => !trailIds.has(s.entry.id) && s.entry.at >= since).map((s) => s.entry.id),
    'feed entries stamped after since that the trail does not hold',
  ).toEqual([]);
  return trail;
}

describe('the change feed when commits come late', () => {
  it(
    'gives every entry once while two G3 of 1,000 users and an E3 of 1,000 users run with small moves',
    async () => {
      const [groupA, groupB, moved, small] = await Promise.all([
        directUsers(unique('ga'), 1000),
        directUsers(unique('gb'), 1000),
        directUsers(unique('mv'), 1000),
        directUsers(unique('sm'), 10),
      ]);
      const bulkTarget = await createDepartment(api);
      const smallTargets = [await createDepartment(api), await createDepartment(api)];
      const since = new Date().toISOString();
      await sleep(2);

      let stopped = false;
      const reader = follow(since, () => stopped);
      const answers: Array<{ label: string; status: number; at: number }> = [];
      const answered = (label: string) => (response: { status: number }) =>
        answers.push({ label, status: response.status, at: Date.now() });
      const began = Date.now();
      const large = [
        api.post('/v2/groups', { id: unique('feedg'), name: unique('Feed A '), user_ids: groupA }).then(answered('G3 A')),
        api.post('/v2/groups', { id: unique('feedg'), name: unique('Feed B '), user_ids: groupB }).then(answered('G3 B')),
        api.post(`/v2/departments/${bulkTarget}/users`, { user_ids: moved }).then(answered('E3')),
      ];
      // Small moves all the while the large changes run: round after round, every user into the other department.
      let largeDone = false;
      const smallMoves = (async () => {
        for (let n = 0; !largeDone || n < 20; n++) {
          const response = await api.post(
            `/v2/departments/${smallTargets[Math.floor(n / small.length) % 2]}/users/${small[n % small.length]}`,
          );
          answered('E2')(response);
        }
      })();
      await Promise.all(large);
      largeDone = true;
      await smallMoves;
      const lastAnswer = Math.max(...answers.map((a) => a.at));

      const trail = await expectEveryEntryOnce(since, reader, () => (stopped = true), lastAnswer);
      const moves = answers.filter((a) => a.label === 'E2');
      // Only contention may refuse a small move; every one that succeeded is one entry.
      const statuses = moves.map((move) => move.status).join(' ');
      for (const move of moves) expect([200, 409, 503], statuses).toContain(move.status);
      expect(trail.filter((entry) => entry.operation === 'E2').length, statuses).toBe(moves.filter((m) => m.status === 200).length);
      console.log(
        `change feed, late commits: ${trail.length} entries in ${lastAnswer - began} ms (${answers
          .filter((a) => a.label !== 'E2')
          .map((a) => `${a.label} ${a.status} after ${a.at - began} ms`)
          .join(', ')}; ${moves.length} small moves), every one seen once`,
      );
    },
    6 * 60_000,
  );

  it(
    'gives a move whose transaction commits 15 s after it was sent, once it has committed, without a skip',
    async () => {
      const users = await directUsers(unique('hd'), 11);
      const [heldTarget, other] = [await createDepartment(api), await createDepartment(api)];
      const since = new Date().toISOString();
      await sleep(2);
      let stopped = false;
      const reader = follow(since, () => stopped);

      hold = { resourceId: heldTarget, ms: 15_000 };
      const heldMove = api.post(`/v2/departments/${heldTarget}/users/${users[0]}`).then((response) => ({ response, at: Date.now() }));
      // Moves stamped, committed and fed while the held one waits.
      const during: number[] = [];
      for (let n = 0; n < 10; n++) {
        const response = await api.post(`/v2/departments/${other}/users/${users[1 + n]}`);
        expect(response.status, response.text).toBe(200);
        during.push(Date.now());
        await sleep(800);
      }
      const { response, at: answeredAt } = await heldMove;
      expect(response.status, response.text).toBe(200);
      expect(answeredAt - hold.heldAt!).toBeGreaterThanOrEqual(15_000);

      const trail = await expectEveryEntryOnce(since, reader, () => (stopped = true), answeredAt);
      const held = reader.seen.find((s) => s.entry.resource_id === heldTarget && s.entry.operation === 'E2')!;
      const others = reader.seen.filter((s) => s.entry.resource_id === other && s.entry.operation === 'E2');
      expect(others).toHaveLength(10);
      // Stamped when its writes were made, 15 s before its commit; given once it had committed.
      expect(Date.parse(held.entry.at)).toBeLessThan(hold.heldAt! + 1000);
      expect(held.seenAt).toBeGreaterThanOrEqual(hold.heldAt! + 15_000);
      expect(held.seenAt - answeredAt).toBeLessThanOrEqual(APPEARS_WITHIN_MS);
      // The reader had passed entries stamped well after it (more than the 5 s a settle window would wait) before it
      // came: by `at` alone, a reader would have walked past it.
      expect(
        others.filter((s) => s.seenAt < held.seenAt && Date.parse(s.entry.at) > Date.parse(held.entry.at) + 5000).length,
      ).toBeGreaterThan(0);
      expect(trail.filter((entry) => entry.operation === 'E2')).toHaveLength(11);
    },
    3 * 60_000,
  );
});
