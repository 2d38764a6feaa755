/**
 * The list-scale dataset (docs/performance.md "Lists"), the same on every run (a PRNG seeded by the prefix). Its items
 * are built by the store's own builders, in `itemsFor`, `groupItemsFor` and `auditItemsFor`: when the store gains
 * counters or index attributes, those are the places to change.
 */
import type { AccountRole } from '../../lib/schemas/enums';
import { auditItem, type AuditInput } from '../../lib/store/audit';

/** An entry of the dataset: written as of its own time, not the time it is loaded. */
type DatasetAuditEntry = AuditInput & { at: string };
import { claimItem } from '../../lib/store/claims';
import { groupNameItem } from '../../lib/store/group-names';
import { newGroupItem } from '../../lib/store/groups';
import { DEPARTMENTS_COUNTER, GROUPS_COUNTER } from '../../lib/store/stats';
import { departmentCopyItem, membershipOf, userItem, type User } from '../../lib/store/users';
import { cellCounterName } from '../../lib/users/counters';
import { addCounters, departmentItem, listCounterWrites, sendCounterWrites, type Doc } from '../../test/support/measure/dataset';
import { putMany } from './tables';
import { pad, progress, round } from './util';

type Item = Record<string, unknown>;

/** The moment the dataset is drawn against ("now"); last logins and audit entries lie before it. */
export const DATASET_NOW = '2026-11-22T12:00:00.000Z';
const NOW_MS = Date.parse(DATASET_NOW);
const DAY_MS = 86_400_000;
const CREATED_FROM = Date.parse('2023-01-01T00:00:00.000Z');

export type ListDepartment = { id: string; name: string };
/** `prefix` makes ids unique per dataset and seeds the PRNG. */
export type ListDatasetSpec = { users: number; departments: number; prefix: string };

/** mulberry32, seeded from a string: small, fast, reproducible. */
export function prng(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws indexes 0..n-1 with weight 1/(k + 1 + shift)^exponent for index k. */
function zipf(n: number, exponent: number, shift: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / (k + 1 + shift) ** exponent;
  return () => {
    const u = random() * total;
    let [lo, hi] = [0, n - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Draws a value of `shares` ([value, share] pairs), else `otherwise`. */
function drawShare<T>(random: () => number, shares: Array<[T, number]>, otherwise: T): T {
  let u = random();
  for (const [value, share] of shares) if ((u -= share) < 0) return value;
  return otherwise;
}

function shuffle<T>(values: T[], random: () => number): T[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j], values[i]];
  }
  return values;
}

/** `total` shared out over `weights` by largest remainder (the counts add up to `total`). */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let i = 0; left > 0; i = (i + 1) % byRemainder.length, left--) counts[byRemainder[i][1]]++;
  return counts;
}

const iso = (ms: number) => new Date(Math.round(ms)).toISOString();

const ONSETS = ['B', 'Br', 'C', 'Ch', 'D', 'F', 'G', 'Gr', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'St', 'T', 'V', 'W', 'Z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const MIDDLES = ['', 'l', 'n', 'r', 'm', 's', 'v', 'd', 'nd', 'rl', 'st'];
const ENDINGS = ['', 'er', 'son', 'ton', 'ley', 'man', 'ford', 'ard', 'ski', 'ez', 'ova', 'ini', 'sen', 'well', 'by', 'ens'];
/** Real surnames placed at fixed ranks of the pool (0 = commonest): the "Sm" ones, and a few that test case folding. */
const PLACED_SURNAMES: Array<[number, string]> = [
  [2, 'Smith'], [9, 'García'], [25, 'Müller'], [59, 'Smyth'], [120, 'van der Berg'], [180, "O'Neill"], [399, 'Smalley'],
  [640, 'de la Cruz'], [900, 'Ødegård'], [1199, 'Smets'], [1500, 'Łukasiewicz'],
]; // prettier-ignore
const FIRST_NAMES = [
  'Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette',
  'Ken', 'Radia', 'Tim', 'Katherine', 'John', 'Mary', 'James', 'Linda', 'Robert', 'Patricia',
  'Michael', 'Jennifer', 'William', 'Elizabeth', 'David', 'Susan', 'Richard', 'Jessica', 'Joseph', 'Sarah',
  'Thomas', 'Karen', 'Chen', 'Wei', 'Aiko', 'Hiroshi', 'Fatima', 'Omar', 'Priya', 'Arjun',
]; // prettier-ignore

/** 2,000 distinct surnames, commonest first. Generated ones never start with "Sm", so `last_name:Sm` matches the placed ones only. */
function surnamePool(random: () => number, size = 2000): string[] {
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)];
  const placed = new Map(PLACED_SURNAMES);
  const used = new Set<string>(placed.values());
  const pool: string[] = [];
  for (let rank = 0; rank < size; rank++) {
    let name = placed.get(rank) ?? '';
    while (!placed.has(rank) && (used.has(name) || name.length < 3)) {
      const syllables = 1 + Math.floor(random() * 2);
      name = pick(ONSETS) + pick(VOWELS);
      for (let s = 1; s < syllables; s++) name += pick(MIDDLES) + pick(VOWELS);
      name += pick(ENDINGS);
    }
    used.add(name);
    pool.push(name);
  }
  return pool;
}

const DEPARTMENT_FUNCTIONS = [
  'Engineering', 'Sales', 'Marketing', 'Finance', 'Legal', 'Support', 'Operations', 'Research', 'Design', 'Facilities',
  'Security', 'Procurement', 'Training', 'Logistics', 'Quality', 'Data', 'Platform', 'Field Service', 'Partnerships', 'People',
]; // prettier-ignore
const SITES = ['Berlin', 'Lyon', 'Austin', 'Osaka', 'Pune', 'Leeds', 'Porto', 'Oslo', 'Denver', 'Seoul'];

const ascii = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/ø/gi, 'o')
    .replace(/ł/gi, 'l')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

const ROLES: Array<[AccountRole, number]> = [['admin', 0.05], ['manager', 0.1], ['guest', 0.1], ['member', 0.75]]; // prettier-ignore

/** Never (15%); else within the last 6 months (60%) or the 18 months before (40%). */
function drawLastLogin(random: () => number): string | null {
  if (random() < 0.15) return null;
  const halfYear = 182 * DAY_MS;
  const ago = random() < 0.6 ? random() * halfYear : halfYear + random() * 3 * halfYear;
  return iso(NOW_MS - ago);
}

/** Users, departments and audit entries of one size (records only; `itemsFor` and `auditItemsFor` make the items). */
export function makeListDataset(spec: ListDatasetSpec) {
  const random = prng(`list-dataset:${spec.prefix}`);
  const surnames = surnamePool(random);
  const surname = zipf(surnames.length, 1, 5, random);

  // Departments: ranked sizes, the ranks dealt to ids at random (the largest is not d0000).
  const width = String(spec.departments).length + 1;
  const departments = Array.from({ length: spec.departments }, (_, d) => ({
    id: `${spec.prefix}d${pad(d, width)}`,
    name: `${DEPARTMENT_FUNCTIONS[d % DEPARTMENT_FUNCTIONS.length]} ${SITES[Math.floor(d / DEPARTMENT_FUNCTIONS.length) % SITES.length]} ${d}`,
  }));
  const weights = departments.map((_, k) => 1 / (k + 3));
  const rankedSizes = apportion(Math.round(spec.users * 0.9), weights);
  const ranked = shuffle([...departments], random);
  const sizes = new Map(ranked.map((d, k) => [d.id, rankedSizes[k]]));
  const seats: Array<string | null> = [];
  for (const d of ranked) for (let i = 0; i < sizes.get(d.id)!; i++) seats.push(d.id);
  while (seats.length < spec.users) seats.push(null);
  shuffle(seats, random);

  const userWidth = String(spec.users).length;
  const users: User[] = [];
  for (let n = 0; n < spec.users; n++) {
    const id = `${spec.prefix}u${pad(n, userWidth)}`;
    const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)];
    const last = surnames[surname()];
    const lastLogin = drawLastLogin(random);
    const createdBefore = lastLogin ? Date.parse(lastLogin) : NOW_MS;
    const created = iso(CREATED_FROM + random() * (createdBefore - CREATED_FROM));
    const email = `${ascii(first)}.${ascii(last)}.${n}@example.com`;
    users.push({
      ...{ id, email, user_name: email, external_id: null, first_name: first, last_name: last },
      ...{ account_role: drawShare(random, ROLES, 'member'), activated: random() < 0.8, last_login: lastLogin, department_id: seats[n] },
      ...{ created_at: created, updated_at: lastLogin ?? created },
    });
  }
  const [largestId, largestSize] = [...sizes].reduce((a, b) => (b[1] > a[1] ? b : a));

  const audit = makeAuditEntries(users, departments, random, spec.prefix);
  // `largest`: the department with the most members.
  return { users, departments, largest: { id: largestId, users: largestSize }, audit };
}

const ACTORS = [
  'local-admin', 'scim-okta', 'it-ops-script', 'hr-sync', 'alice.admin', 'bob.admin', 'carol.it', 'dave.it', 'erin.helpdesk',
  'frank.helpdesk', 'grace.security', 'heidi.hr', 'ivan.hr', 'judy.finance', 'mallory.audit', 'niaj.it', 'olivia.it',
  'peggy.ops', 'rupert.ops', 'sybil.onboarding',
]; // prettier-ignore
const OPERATIONS: Array<[string, number]> = [['createUser', 0.2], ['updateUser', 0.4], ['E2', 0.25], ['E3', 0.05], ['G4', 0.1]]; // prettier-ignore
const PATCHABLE = ['activated', 'account_role', 'last_name', 'first_name', 'email'] as const;

/** One audit entry per user, over the year before the dataset's now. */
function makeAuditEntries(users: User[], departments: ListDepartment[], random: () => number, prefix: string): DatasetAuditEntry[] {
  const actor = zipf(ACTORS.length, 1, 1, random);
  const anyUser = () => users[Math.floor(random() * users.length)];
  const anyDepartment = () => departments[Math.floor(random() * departments.length)].id;
  const hex = (length: number) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
  const entries: DatasetAuditEntry[] = [];
  for (let i = 0; i < users.length; i++) {
    const operation = drawShare(random, OPERATIONS, 'updateUser');
    const at = iso(NOW_MS - random() * 365 * DAY_MS);
    const base = { at, actor: ACTORS[actor()], operation, request_id: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}` };
    const user = anyUser();
    if (operation === 'createUser') {
      const created = { ...user, department_id: null, created_at: at, updated_at: at, activated: false, last_login: null };
      entries.push({ ...base, resource_type: 'user', resource_id: user.id, changes: { created } });
    } else if (operation === 'updateUser') {
      const field = PATCHABLE[Math.floor(random() * PATCHABLE.length)];
      const changes: Record<string, unknown> =
        field === 'activated'
          ? { activated: { from: !user.activated, to: user.activated } }
          : field === 'account_role'
            ? { account_role: { from: 'member', to: user.account_role } }
            : { [field]: { from: `${String(user[field])}-old`, to: user[field] } };
      entries.push({ ...base, resource_type: 'user', resource_id: user.id, changes });
    } else if (operation === 'E2') {
      const from = random() < 0.3 ? anyDepartment() : undefined;
      const changes = { added_user_ids: [user.id], ...(from ? { moved_from: { [user.id]: from } } : {}) };
      entries.push({ ...base, resource_type: 'department', resource_id: user.department_id ?? anyDepartment(), changes });
    } else if (operation === 'E3') {
      const ids = Array.from({ length: 2 + Math.floor(random() * 39) }, () => anyUser().id);
      entries.push({ ...base, resource_type: 'department', resource_id: anyDepartment(), changes: { added_user_ids: [...new Set(ids)] } });
    } else {
      const group = `${prefix}g${pad(Math.floor(random() * 500), 3)}`;
      entries.push({ ...base, resource_type: 'group', resource_id: group, changes: { added_user_ids: [user.id] } });
    }
  }
  return entries;
}

/** Users with their claims and department copies, departments with their members' counters, the service counters. */
export function itemsFor(users: User[], departments: ListDepartment[]) {
  const items: Item[] = [];
  const counters: Record<string, number> = {};
  const count = (name: string, delta: number) => (counters[name] = (counters[name] ?? 0) + delta);
  const members = new Map(departments.map((d) => [d.id, [] as User[]]));
  for (const user of users) {
    items.push(userItem(user, 1), claimItem('email', user.email, user.id), claimItem('user_name', user.user_name, user.id));
    if (user.department_id) {
      items.push(departmentCopyItem({ ...user, department_id: user.department_id }));
      members.get(user.department_id)!.push(user);
    }
    count(cellCounterName(membershipOf(user.department_id), user), 1);
  }
  const createdStep = (NOW_MS - CREATED_FROM) / Math.max(1, departments.length);
  for (const [index, department] of departments.entries()) {
    // One a little later than the other, so a created_at sort has an order to keep.
    const createdAt = iso(CREATED_FROM + Math.floor(index * createdStep));
    items.push(departmentItem(department.id, department.name, members.get(department.id) ?? [], createdAt));
    count(DEPARTMENTS_COUNTER, 1);
  }
  return { items, counters, counterWrites: listCounterWrites(users) };
}

/** Groups of the dataset (see the top of this file), as lib/store/groups.ts writes a published group, with their name claims. */
export function groupItemsFor(users: number, prefix: string): { items: Item[]; counters: Record<string, number> } {
  const random = prng(`list-groups:${prefix}`);
  const n = Math.max(1, Math.round(users / 10));
  const width = String(n).length + 1;
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 3));
  const ranked = shuffle(apportion(Math.round(users * 1.5), weights), random);
  const items: Item[] = [];
  for (let g = 0; g < n; g++) {
    const id = `${prefix}g${pad(g, width)}`;
    const name = `${DEPARTMENT_FUNCTIONS[g % DEPARTMENT_FUNCTIONS.length]} circle ${g}`;
    const createdAt = iso(CREATED_FROM + random() * (NOW_MS - CREATED_FROM));
    const published = { state: 'active' as const, user_count: Math.min(10_000, ranked[g]), version: 1 };
    items.push(newGroupItem({ id, name, description: '', external_id: null }, `gen${g}`, createdAt, published), groupNameItem(id, name));
  }
  return { items, counters: { [GROUPS_COUNTER]: n } };
}

/**
 * Audit items, as lib/store/audit.ts writes them (the same one-place rule as `itemsFor`, for the audit trail), and as
 * the change feed's sequencer leaves them: placed, their pending mark off (the feed's own items: bench/feed.ts).
 */
export function auditItemsFor(entries: DatasetAuditEntry[]): Item[] {
  return entries.map(({ at, ...entry }) => {
    const { gsi1pk: _pending, ...placed } = auditItem(entry, at);
    return placed;
  });
}

/** Makes and loads the dataset; answers it with the key of each user's, department's, group's and audit entry's item by id. */
export async function loadListDataset(client: Doc, table: string, spec: ListDatasetSpec) {
  const started = performance.now();
  const dataset = makeListDataset(spec);
  const { items, counters, counterWrites } = itemsFor(dataset.users, dataset.departments);
  const audit = auditItemsFor(dataset.audit);
  const groups = groupItemsFor(spec.users, spec.prefix);
  const keys = new Map<string, { pk: string; sk: string }>();
  for (const item of [...items, ...audit, ...groups.items]) {
    if (['user', 'audit', 'department', 'group'].includes(String(item.type)))
      keys.set(String(item.id), { pk: String(item.pk), sk: String(item.sk) });
  }
  await putMany(client, table, items, `list: ${spec.users} users, ${spec.departments} departments`);
  await putMany(client, table, groups.items, `list: ${groups.counters[GROUPS_COUNTER]} groups`);
  await addCounters(client, table, { ...counters, ...groups.counters });
  await sendCounterWrites(client, table, counterWrites);
  await putMany(client, table, audit, `list: ${audit.length} audit entries`);
  const [loaded, seconds] = [items.length + audit.length + groups.items.length, round((performance.now() - started) / 1000, 0)];
  progress(`list: loaded ${loaded} items in ${seconds} s; largest department ${dataset.largest.id} (${dataset.largest.users} users)`);
  return { ...dataset, keys, items: loaded };
}
