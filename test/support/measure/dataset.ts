/**
 * Loads a consistent dataset straight into a table, its items built by the store's own builders and its counters raised
 * to match: what test/support/invariants.ts checks holds. Import only after process.env points at the local stack.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Write } from '../../../lib/db/transact';
import { NO_USAGE, addUsage, usageOf } from '../../../lib/departments/quotas';
import type { AccountRole } from '../../../lib/schemas/enums';
import { claimItem } from '../../../lib/store/claims';
import { newDepartmentItem } from '../../../lib/store/departments';
import { groupNameItem } from '../../../lib/store/group-names';
import { newGroupItem } from '../../../lib/store/groups';
import { addLoginDays, dayAttribute } from '../../../lib/store/login-counts';
import { membershipItems } from '../../../lib/store/memberships';
import { addNameCount } from '../../../lib/store/name-counts';
import { DEPARTMENTS_COUNTER, GROUPS_COUNTER, statsShardKey } from '../../../lib/store/stats';
import {
  cellCode,
  cellOf,
  departmentCopyItem,
  loginMonth,
  membershipOf,
  userItem,
  type Membership,
  type User,
} from '../../../lib/store/users';
import { foldCase } from '../../../lib/text';
import { cellCounterName } from '../../../lib/users/counters';
import { chunks, pad, pool, sleep } from './util';

export type Doc = DynamoDBDocumentClient;

/** A document client of the measurer's own (not the service's), with the service's marshalling options. */
export function rawClient(): Doc {
  const client = new DynamoDBClient({ region: process.env.AWS_REGION, endpoint: process.env.DYNAMODB_ENDPOINT });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** BatchWriteItem puts, 25 a request, `concurrency` requests at a time, unprocessed items re-sent. */
export async function batchPut(client: Doc, table: string, items: Record<string, unknown>[], concurrency = 12): Promise<void> {
  await pool(chunks(items, 25), concurrency, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await sleep(Math.min(1000, 20 * 2 ** round));
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
      pending = (result.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
}

type DatasetSizes = Record<'departments' | 'usersPerDepartment' | 'unassignedUsers' | 'groups' | 'usersPerGroup', number>;
/**
 * `prefix` makes every id and name unique in the table; `unassignedUsers` are in no department; group members are
 * taken round-robin from all users; `emailClaims: false` writes no claims (no report reads them).
 */
export type DatasetSpec = DatasetSizes & { prefix: string; emailClaims?: boolean };
export type GroupRecord = { id: string; name: string; generation: string; members: string[] };

const LAST_NAMES = ['Lovelace', 'hopper', 'Turing', 'Hamilton', 'liskov', 'Knuth', 'Ritchie', 'Goldberg', 'Allen', 'Wing', 'Dijkstra', 'Kay']; // prettier-ignore
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette'];
const CREATED_AT = '2026-01-15T09:30:00.000Z';

/** The role mix of the generated users: mostly members, a few of each other role. */
const roleOf = (n: number): AccountRole => (n % 20 === 0 ? 'admin' : n % 20 < 3 ? 'manager' : n % 20 < 5 ? 'guest' : 'member');

export function makeUser(id: string, n: number, departmentId: string | null): User {
  return {
    ...{ id, email: `${id}@example.com`, user_name: `${id}@example.com`, external_id: null },
    ...{ first_name: FIRST_NAMES[n % FIRST_NAMES.length], last_name: LAST_NAMES[(n * 7) % LAST_NAMES.length], account_role: roleOf(n) },
    ...{ activated: n % 3 !== 0, last_login: n % 4 === 0 ? null : '2026-03-01T08:00:00.000Z', department_id: departmentId },
    ...{ created_at: CREATED_AT, updated_at: CREATED_AT },
  };
}

/** A department item with the counters its `members` make (newDepartmentItem's are those of an empty one). */
export function departmentItem(id: string, name: string, members: User[], createdAt = CREATED_AT): Record<string, unknown> {
  let usage = NO_USAGE;
  const counters: Record<string, number> = {};
  const count = (attribute: string) => (counters[attribute] = (counters[attribute] ?? 0) + 1);
  for (const member of members) {
    usage = addUsage(usage, usageOf(member));
    count(`C#${cellCode(cellOf(member))}`);
    if (member.last_login) count(`L#${loginMonth(member.last_login)}`);
  }
  return { ...newDepartmentItem(id, name, createdAt, usage), ...counters };
}

/** The login-day (shard 0) and last-name counters of `users`, as the store's own counter updates. */
export function listCounterWrites(users: User[]): Write[] {
  const days = new Map<string, Record<string, number>>();
  const names = new Map<string, number>();
  for (const user of users) {
    const membership = membershipOf(user.department_id);
    if (user.last_login) {
      const key = `${membership}|${loginMonth(user.last_login)}`;
      const record = days.get(key) ?? {};
      record[dayAttribute(user.last_login)] = (record[dayAttribute(user.last_login)] ?? 0) + 1;
      days.set(key, record);
    }
    // A member's last name counts for its membership and for its department.
    for (const scope of [membership, ...(user.department_id ? [`D:${user.department_id}`] : [])]) {
      const nameKey = `${scope}|${foldCase(user.last_name)}`;
      names.set(nameKey, (names.get(nameKey) ?? 0) + 1);
    }
  }
  const split = (key: string) => [key.slice(0, key.indexOf('|')), key.slice(key.indexOf('|') + 1)] as const;
  const nameScope = (scope: string) => (scope.startsWith('D:') ? { department: scope.slice(2) } : { membership: scope as Membership });
  return [
    ...[...days].flatMap(([key, record]) => addLoginDays(split(key)[0] as Membership, split(key)[1], 0, record)),
    ...[...names].flatMap(([key, n]) => addNameCount(nameScope(split(key)[0]), split(key)[1], n)),
  ];
}

/** Sends counter updates built by the store (transaction items) one by one, to `table`. */
export async function sendCounterWrites(client: Doc, table: string, writes: Write[], concurrency = 8): Promise<void> {
  await pool(writes, concurrency, async (write) => {
    const update = write.item.Update;
    if (!update) throw new Error('only counter updates are sent one by one');
    await client.send(new UpdateCommand({ ...(update as UpdateCommandInput), TableName: table }));
  });
}

/** Builds the dataset's items, its service counters and its list counter updates; `loadDataset` writes them. */
export function makeDataset(spec: DatasetSpec) {
  const items: Record<string, unknown>[] = [];
  const counters: Record<string, number> = {};
  const count = (name: string, delta: number) => (counters[name] = (counters[name] ?? 0) + delta);
  const users: User[] = [];
  const members = new Map<string, string[]>();
  const departments: string[] = [];
  const width = String(spec.departments * spec.usersPerDepartment + spec.unassignedUsers).length;
  const addUser = (departmentId: string | null) => {
    const user = makeUser(`${spec.prefix}u${pad(users.length, width)}`, users.length, departmentId);
    users.push(user);
    items.push(userItem(user, 1));
    if (departmentId) items.push(departmentCopyItem({ ...user, department_id: departmentId }));
    if (spec.emailClaims !== false) items.push(claimItem('email', user.email, user.id), claimItem('user_name', user.user_name, user.id));
    count(cellCounterName(membershipOf(departmentId), user), 1);
    return user;
  };
  for (let d = 0; d < spec.departments; d++) {
    const id = `${spec.prefix}d${pad(d, String(spec.departments).length)}`;
    departments.push(id);
    const departmentUsers: User[] = [];
    for (let i = 0; i < spec.usersPerDepartment; i++) departmentUsers.push(addUser(id));
    const ids = departmentUsers.map((user) => user.id);
    members.set(id, ids);
    items.push(departmentItem(id, `Department ${spec.prefix}${d}`, departmentUsers));
    count(DEPARTMENTS_COUNTER, 1);
  }
  const unassigned: string[] = [];
  for (let i = 0; i < spec.unassignedUsers; i++) unassigned.push(addUser(null).id);

  const groups: GroupRecord[] = [];
  let next = 0;
  for (let g = 0; g < spec.groups; g++) {
    const id = `${spec.prefix}g${pad(g, String(spec.groups).length)}`;
    const name = `Group ${spec.prefix}${g}`;
    const generation = randomBytes(12).toString('base64url');
    const groupMembers: string[] = [];
    for (let i = 0; i < spec.usersPerGroup && users.length > 0; i++) groupMembers.push(users[next++ % users.length].id);
    const unique = [...new Set(groupMembers)];
    groups.push({ id, name, generation, members: unique });
    const published = { state: 'active' as const, user_count: unique.length, version: 1 };
    items.push(newGroupItem({ id, name, description: '', external_id: null }, generation, CREATED_AT, published), groupNameItem(id, name));
    for (const userId of unique) items.push(...membershipItems({ id, generation }, userId, CREATED_AT));
    count(GROUPS_COUNTER, 1);
  }
  // `members`: user ids by department.
  const dataset = { users, departments, members, unassigned, groups, items: items.length };
  return { dataset, items, counters, counterWrites: listCounterWrites(users) };
}

/** Raises the service counters (stats shard 00; the service sums every shard) by `counters`. */
export async function addCounters(client: Doc, table: string, counters: Record<string, number>): Promise<void> {
  const entries = Object.entries(counters).filter(([, delta]) => delta !== 0);
  if (entries.length === 0) return;
  await client.send(
    new UpdateCommand({
      TableName: table,
      Key: statsShardKey(0),
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, delta], i) => [`:d${i}`, delta])),
    }),
  );
}

export async function loadDataset(client: Doc, table: string, spec: DatasetSpec, concurrency = 12) {
  const { dataset, items, counters, counterWrites } = makeDataset(spec);
  await batchPut(client, table, items, concurrency);
  await addCounters(client, table, counters);
  await sendCounterWrites(client, table, counterWrites);
  return dataset;
}

/**
 * Users in no department, written straight into `table` with their counters: no audit entries and no claims of their
 * own, and no minute of setup through the API. Answers their ids.
 */
export async function directUsers(table: string, prefix: string, count: number): Promise<string[]> {
  const users = Array.from({ length: count }, (_, n) => makeUser(`${prefix}${n}`, n, null));
  const client = rawClient();
  await batchPut(client, table, users.map((user) => userItem(user, 1)) as Record<string, unknown>[], 8);
  const counters: Record<string, number> = {};
  for (const user of users) counters[cellCounterName('OUT', user)] = (counters[cellCounterName('OUT', user)] ?? 0) + 1;
  await addCounters(client, table, counters);
  await sendCounterWrites(client, table, listCounterWrites(users));
  client.destroy();
  return users.map((user) => user.id);
}
