/**
 * The change feed's promise under load: a reader walking GET /v2/changes by
 * cursor while 8 writers make 2,000 changes through the API sees every change
 * exactly once, in the feed's order, each within 10 seconds of its request's
 * answer. The feed's order is the order entries were appended to it, exact
 * within each audit shard (lib/changes/feed.ts): a walk made afterwards gives
 * each shard's entries in the same order as the live walk did.
 *
 * The writers make department moves (E2), bulk moves (E3, four of them of 50
 * users: the bulk-move protocol's parts path), SCIM user creates and PATCHes,
 * and group member adds and removes (G4, G5). Each writer owns its
 * departments, users and group, and every request it makes changes something,
 * so each answered 2xx is exactly one audit entry and nothing else makes one.
 *
 * The 10-second bound is the contract's: seen − answer ≤ 10 s, where `seen`
 * is when the reader's page holding the entry arrived and `answer` when the
 * writer's answer arrived. Entries are matched to answers by resource: each
 * resource (a department, group or SCIM user) belongs to one writer, whose
 * requests follow one another, so its k-th entry in `at` order is its k-th
 * 2xx answer — once the test has checked that each resource has as many
 * entries as 2xx answers. (seen − at is printed beside it: it bounds
 * seen − answer from above, since `at` is stamped when the change's writes
 * are made, before the answer, on the one clock of this machine.)
 *
 * Cost: 214 s on 2 cores shared with other work (load average ~18): 250
 * users made first, the 2,000 changes (191 s of it), 10 s of quiet at the end.
 */
import { describe, expect, it } from 'vitest';
import { auditShard } from '../../lib/store/audit';
import { useApi, type ApiResponse } from '../support/api';
import { auditSince, unique } from '../support/fixtures';
import { patchOps, scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const scim = scimClient(api);

const WRITERS = 8;
const CHANGES = 2_000;
const PER_WRITER = CHANGES / WRITERS;
/** The contract's bound: a change appears in the feed within 10 seconds of its request's answer. */
const APPEARS_WITHIN_MS = 10_000;
/** How often the reader asks again when it has caught up. */
const POLL_MS = 300;
/** Users per bulk move of the four large ones: 2 items each, so over a transaction's 100 items: the parts path. */
const LARGE_MOVE = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const placeOf = (entry: { at: string; id: string }) => `${entry.at}\u0001${entry.id}`;

interface Answer {
  label: string;
  resourceId: string;
  status: number;
  ok: boolean;
  answeredAt: number;
  text: string;
}

async function createUsers(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, async () => {
        const id = unique('fr');
        const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Feed' });
        expect(response.status, response.text).toBe(201);
        return id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

interface Writer {
  departments: string[];
  group: string;
  users: string[];
  large: string[];
}

async function setUpWriter(index: number): Promise<Writer> {
  const departments: string[] = [];
  for (let d = 0; d < 3; d++) {
    const id = unique(`fd${index}x`);
    expect((await api.post('/v2/departments', { id, name: `Feed ${id}` })).status).toBe(201);
    departments.push(id);
  }
  const group = unique(`fg${index}x`);
  expect((await api.post('/v2/groups', { id: group, name: `Feed ${group}` })).status).toBe(201);
  return { departments, group, users: await createUsers(6), large: index < 4 ? await createUsers(LARGE_MOVE) : [] };
}

/** One writer's 250 changes, each one that changes something, recording when each answer arrived. */
async function write(index: number, writer: Writer, answers: Answer[]): Promise<void> {
  const where = new Map<string, number>(); // user → index of its department (none yet: -1)
  const inGroup = new Set<string>();
  const scimUsers: string[] = [];
  let nextUser = 0;
  let nextPatch = 0;
  let largeMoves = 0;
  const record = async (label: string, resourceId: string, send: () => Promise<ApiResponse>) => {
    const response = await send();
    const ok = response.status >= 200 && response.status < 300;
    const answer = { label, resourceId, status: response.status, ok, answeredAt: Date.now(), text: ok ? '' : response.text.slice(0, 300) };
    answers.push(answer);
    return answer;
  };
  const departmentOf = (user: string) => where.get(user) ?? -1;
  for (let n = 0; n < PER_WRITER; n++) {
    const user = writer.users[nextUser++ % writer.users.length];
    const other = (departmentOf(user) + 1) % 3;
    const department = writer.departments[other];
    if (writer.large.length && (n === 40 || n === 160)) {
      // The parts path: every user of the pool moves (to department 0, then 1).
      const target = writer.departments[largeMoves++];
      await record('E3 large', target, () => api.post(`/v2/departments/${target}/users`, { user_ids: writer.large }));
      continue;
    }
    switch (n % 8) {
      case 0:
      case 1:
        await record('E2', department, () => api.post(`/v2/departments/${department}/users/${user}`));
        where.set(user, other);
        break;
      case 2: {
        // The first user moves; others may already be there (one entry all the same).
        const ids = [user, writer.users[nextUser++ % writer.users.length], writer.users[nextUser++ % writer.users.length]];
        await record('E3', department, () => api.post(`/v2/departments/${department}/users`, { user_ids: ids }));
        for (const id of ids) where.set(id, other);
        break;
      }
      case 3:
      case 5: {
        const userName = `${unique(`fs${index}x`)}@example.com`;
        let created: ApiResponse | undefined;
        const answer = await record('SCIM create', userName, async () => {
          created = await scim.post('/Users', { schemas: [USER_SCHEMA], userName, name: { familyName: 'Feed' }, active: true });
          return created;
        });
        // The entry names the user by id, which the answer gives.
        if (created?.status === 201) {
          answer.resourceId = created.body.id;
          scimUsers.push(created.body.id);
        }
        break;
      }
      case 4:
      case 6: {
        const target = scimUsers[nextPatch++ % scimUsers.length];
        const familyName = `Feed${n}`;
        await record('SCIM PATCH', target, () =>
          scim.patch(`/Users/${target}`, patchOps({ op: 'replace', path: 'name.familyName', value: familyName })),
        );
        break;
      }
      case 7: {
        const member = writer.users[n % writer.users.length];
        if (inGroup.has(member)) {
          await record('G5', writer.group, () => api.delete(`/v2/groups/${writer.group}/users/${member}`));
          inGroup.delete(member);
        } else {
          await record('G4', writer.group, () => api.post(`/v2/groups/${writer.group}/users/${member}`));
          inGroup.add(member);
        }
        break;
      }
    }
  }
}

interface Seen {
  entry: any;
  seenAt: number;
}

/** Walks the feed by cursor until `stopped()`; counts the entries that came after one stamped later (`at` is not the order). */
async function read(since: string, stopped: () => boolean): Promise<{ seen: Seen[]; pages: number; inversions: number }> {
  const seen: Seen[] = [];
  let inversions = 0;
  const counts = [1000, 100, 37];
  let place = '';
  let cursor: string | undefined;
  let pages = 0;
  while (!stopped()) {
    const count = counts[pages % counts.length];
    const page = await api.get(
      cursor ? `/v2/changes?count=${count}&cursor=${encodeURIComponent(cursor)}` : `/v2/changes?count=${count}&since=${since}`,
    );
    const seenAt = Date.now();
    expect(page.status, page.text).toBe(200);
    pages++;
    for (const entry of page.body.changes) {
      if (placeOf(entry) <= place) inversions++;
      else place = placeOf(entry);
      seen.push({ entry, seenAt });
    }
    cursor = page.body.next_cursor;
    // A full page: more may wait already; otherwise the reader has caught up with the feed.
    if (page.body.count < count) await sleep(POLL_MS);
  }
  return { seen, pages, inversions };
}

/** The ids of a walk, by audit shard, in the walk's order. */
const byShard = (entries: Array<{ id: string }>) => {
  const shards = new Map<number, string[]>();
  for (const { id } of entries) shards.set(auditShard(id), [...(shards.get(auditShard(id)) ?? []), id]);
  return Object.fromEntries(shards);
};

/** Every entry the feed holds from `since`, walked by cursor now. */
async function walkAgain(since: string): Promise<any[]> {
  const all: any[] = [];
  let next = `/v2/changes?count=1000&since=${since}`;
  for (;;) {
    const page = await api.get(next);
    expect(page.status, page.text).toBe(200);
    all.push(...page.body.changes);
    if (page.body.count === 0) return all;
    next = `/v2/changes?count=1000&cursor=${encodeURIComponent(page.body.next_cursor)}`;
  }
}

const countBy = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

describe('the change feed under 8 racing writers', () => {
  it(
    'a reader by cursor sees each of 2,000 changes exactly once, in order, within 10 seconds of its answer',
    async () => {
      await scim.token();
      const writers: Writer[] = [];
      for (let w = 0; w < WRITERS; w++) writers.push(await setUpWriter(w));
      // Everything above was answered before this time: the changes at or after it are the writers'.
      const start = new Date().toISOString();
      await sleep(2);

      let writersDone = false;
      let quietUntil = Infinity;
      const reader = read(start, () => writersDone && Date.now() > quietUntil);
      reader.catch(() => undefined); // awaited below; a failed page must not go unhandled meanwhile
      const answers: Answer[] = [];
      const began = Date.now();
      await Promise.all(writers.map((writer, w) => write(w, writer, answers)));
      const lastAnswer = Math.max(...answers.map((a) => a.answeredAt));
      quietUntil = lastAnswer + APPEARS_WITHIN_MS;
      writersDone = true;
      const { seen, pages, inversions } = await reader;
      const writing = Date.now() - began;
      // A walk from `start` may also give setup entries that reached the feed after it (lib/changes/feed.ts, since):
      // the writers' are those stamped at or after it.
      const ours = seen.filter((s) => s.entry.at >= start);

      const succeeded = answers.filter((a) => a.ok);
      const failed = answers.filter((a) => !a.ok);
      // Only contention may refuse a request here (each writer's own resources are not contended by design).
      for (const f of failed) expect([409, 503], `${f.label} ${f.resourceId}: ${f.status} ${f.text}`).toContain(f.status);
      expect(failed.length, failed.map((f) => `${f.label} ${f.status}`).join(', ')).toBeLessThan(CHANGES / 50);

      // Exactly once: no entry twice, and the set is the audit trail's since the start.
      const seenIds = seen.map((s) => s.entry.id as string);
      const repeated = [...countBy(seenIds, (id) => id)].filter(([, n]) => n > 1).map(([id]) => id);
      expect(repeated, 'entries the feed gave twice').toEqual([]);
      const trail = await auditSince(api, start);
      const trailIds = new Set(trail.map((e) => e.id as string));
      const oursIds = new Set(ours.map((s) => s.entry.id as string));
      const skipped = trail.filter((e) => !oursIds.has(e.id));
      expect(
        skipped.map((e) => `${e.operation} ${e.resource_id} at ${e.at}`),
        'audit entries the feed never gave',
      ).toEqual([]);
      expect(
        [...oursIds].filter((id) => !trailIds.has(id)),
        'feed entries the audit list does not hold',
      ).toEqual([]);
      expect(trail).toHaveLength(succeeded.length);
      expect(ours).toHaveLength(succeeded.length);
      // Each 2xx is one entry about its resource.
      const entriesPer = countBy(ours, (s) => s.entry.resource_id as string);
      const answersPer = countBy(succeeded, (a) => a.resourceId);
      expect(Object.fromEntries(entriesPer)).toEqual(Object.fromEntries(answersPer));

      // In the feed's order: each shard's entries as a walk made now gives them.
      const again = (await walkAgain(start)).filter((entry) => entry.at >= start);
      expect(byShard(ours.map((s) => s.entry))).toEqual(byShard(again));

      // Within 10 seconds of its answer: each resource's k-th entry is its k-th 2xx answer (see the top of this file).
      const answersOf = new Map<string, Answer[]>();
      for (const a of succeeded) answersOf.set(a.resourceId, [...(answersOf.get(a.resourceId) ?? []), a]);
      const inOrder = [...ours].sort((a, b) => (placeOf(a.entry) < placeOf(b.entry) ? -1 : 1));
      const taken = new Map<string, number>();
      const lags = inOrder.map((s) => {
        const k = taken.get(s.entry.resource_id) ?? 0;
        taken.set(s.entry.resource_id, k + 1);
        const answer = answersOf.get(s.entry.resource_id)![k];
        return { s, afterAnswer: s.seenAt - answer.answeredAt, afterAt: s.seenAt - Date.parse(s.entry.at) };
      });
      const late = lags.filter((l) => l.afterAnswer > APPEARS_WITHIN_MS);
      const percentile = (values: number[], p: number) =>
        [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
      const summary = (values: number[]) =>
        `p50 ${percentile(values, 0.5)} ms, p99 ${percentile(values, 0.99)} ms, max ${Math.max(...values)} ms`;
      console.log(
        `change feed race: ${succeeded.length} changes (${failed.length} refused) by ${WRITERS} writers in ${writing} ms, ${pages} pages; ` +
          `seen − answer ${summary(lags.map((l) => l.afterAnswer))}; seen − at ${summary(lags.map((l) => l.afterAt))}; ` +
          `${inversions} entries after one stamped later`,
      );
      expect(
        late.map((l) => `${l.s.entry.operation} ${l.s.entry.resource_id} at ${l.s.entry.at}, seen ${l.afterAnswer} ms after its answer`),
        'changes seen more than 10 s after their answer',
      ).toEqual([]);
    },
    10 * 60_000,
  );
});
