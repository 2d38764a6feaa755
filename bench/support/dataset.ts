/**
 * Loads a consistent dataset straight into the table with BatchWriteItem, in
 * the item shapes the service writes (built by the store modules of
 * lib/store/: users, claims, departments, groups, group names, memberships),
 * far faster than through the API. "Consistent": every department's usage
 * counters equal its members, every group's `user_count` its memberships,
 * each user has its e-mail claim, and the service counters (stats shards)
 * are raised by what was loaded.
 *
 * Import only after process.env points at the local stack (lib/ reads its
 * configuration on first use).
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NO_USAGE, addUsage, usageOf, type Usage } from '../../lib/departments/quotas';
import type { AccountRole } from '../../lib/schemas/enums';
import { claimItem } from '../../lib/store/claims';
import { newDepartmentItem } from '../../lib/store/departments';
import { groupNameItem } from '../../lib/store/group-names';
import { newGroupItem } from '../../lib/store/groups';
import { membershipItems } from '../../lib/store/memberships';
import { DEPARTMENTS_COUNTER, GROUPS_COUNTER, statsShardKey, userCounter } from '../../lib/store/stats';
import { membershipOf, userItem, type User } from '../../lib/store/users';
import { pool, sleep } from './util';

export type Doc = DynamoDBDocumentClient;

/** A document client of the bench's own (not the service's), with the service's marshalling options. */
export function rawClient(): Doc {
  const client = new DynamoDBClient({ region: process.env.AWS_REGION, endpoint: process.env.DYNAMODB_ENDPOINT });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** BatchWriteItem puts, 25 a request, `concurrency` requests at a time, unprocessed items re-sent. */
export async function batchPut(client: Doc, table: string, items: Record<string, unknown>[], concurrency = 12): Promise<void> {
  const requests: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) requests.push(items.slice(i, i + 25));
  await pool(requests, concurrency, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await sleep(Math.min(1000, 20 * 2 ** round));
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } }));
      pending = (result.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
}

export interface DatasetSpec {
  /** Makes every id and name of this dataset unique in the table. */
  prefix: string;
  departments: number;
  usersPerDepartment: number;
  /** Users in no department. */
  unassignedUsers: number;
  groups: number;
  /** Members per group, taken round-robin from all users of the dataset. */
  usersPerGroup: number;
  /** Write each user's e-mail claim too (default true; the reports dataset skips them: no report reads them). */
  emailClaims?: boolean;
}

export interface GroupRecord {
  id: string;
  name: string;
  generation: string;
  members: string[];
}

export interface Dataset {
  users: User[];
  departments: string[];
  /** Users by department. */
  members: Map<string, string[]>;
  unassigned: string[];
  groups: GroupRecord[];
  items: number;
}

const LAST_NAMES = [
  'Lovelace',
  'hopper',
  'Turing',
  'Hamilton',
  'liskov',
  'Knuth',
  'Ritchie',
  'Goldberg',
  'Allen',
  'Wing',
  'Dijkstra',
  'Kay',
];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Margaret', 'Barbara', 'Donald', 'Dennis', 'Adele', 'Frances', 'Jeannette'];
const CREATED_AT = '2026-01-15T09:30:00.000Z';
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The role mix of the generated users: mostly members, a few of each other role. */
function roleOf(n: number): AccountRole {
  const slot = n % 20;
  return slot === 0 ? 'admin' : slot < 3 ? 'manager' : slot < 5 ? 'guest' : 'member';
}

export function makeUser(id: string, n: number, departmentId: string | null): User {
  return {
    id,
    email: `${id}@example.com`,
    first_name: FIRST_NAMES[n % FIRST_NAMES.length],
    last_name: LAST_NAMES[(n * 7) % LAST_NAMES.length],
    account_role: roleOf(n),
    activated: n % 3 !== 0,
    last_login: n % 4 === 0 ? null : '2026-03-01T08:00:00.000Z',
    department_id: departmentId,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
  };
}

export const departmentItem = (id: string, name: string, usage: Usage) => newDepartmentItem(id, name, CREATED_AT, usage);

export const newGeneration = () => randomBytes(12).toString('base64url');

/** Builds the dataset's items; `load` writes them. */
export function makeDataset(spec: DatasetSpec): { dataset: Dataset; items: Record<string, unknown>[]; counters: Record<string, number> } {
  const items: Record<string, unknown>[] = [];
  const counters: Record<string, number> = {};
  const count = (name: string, delta: number) => (counters[name] = (counters[name] ?? 0) + delta);
  const users: User[] = [];
  const members = new Map<string, string[]>();
  const departments: string[] = [];
  const width = String(spec.departments * spec.usersPerDepartment + spec.unassignedUsers).length;
  let n = 0;
  const addUser = (departmentId: string | null) => {
    const user = makeUser(`${spec.prefix}u${pad(n, width)}`, n, departmentId);
    n++;
    users.push(user);
    items.push(userItem(user, 1));
    if (spec.emailClaims !== false) items.push(claimItem('email', user.email, user.id));
    count(userCounter(user.account_role, membershipOf(departmentId)), 1);
    return user;
  };
  for (let d = 0; d < spec.departments; d++) {
    const id = `${spec.prefix}d${pad(d, String(spec.departments).length)}`;
    departments.push(id);
    let usage = NO_USAGE;
    const ids: string[] = [];
    for (let i = 0; i < spec.usersPerDepartment; i++) {
      const user = addUser(id);
      usage = addUsage(usage, usageOf(user));
      ids.push(user.id);
    }
    members.set(id, ids);
    items.push(departmentItem(id, `Department ${spec.prefix}${d}`, usage));
    count(DEPARTMENTS_COUNTER, 1);
  }
  const unassigned: string[] = [];
  for (let i = 0; i < spec.unassignedUsers; i++) unassigned.push(addUser(null).id);

  const groups: GroupRecord[] = [];
  let next = 0;
  for (let g = 0; g < spec.groups; g++) {
    const id = `${spec.prefix}g${pad(g, String(spec.groups).length)}`;
    const name = `Group ${spec.prefix}${g}`;
    const generation = newGeneration();
    const groupMembers: string[] = [];
    for (let i = 0; i < spec.usersPerGroup && users.length > 0; i++) groupMembers.push(users[next++ % users.length].id);
    const unique = [...new Set(groupMembers)];
    groups.push({ id, name, generation, members: unique });
    items.push(
      newGroupItem({ id, name, description: '' }, generation, CREATED_AT, { state: 'active', user_count: unique.length, version: 1 }),
      groupNameItem(id, name),
    );
    for (const userId of unique) items.push(...membershipItems({ id, generation }, userId, CREATED_AT));
    count(GROUPS_COUNTER, 1);
  }
  const dataset: Dataset = { users, departments, members, unassigned, groups, items: items.length };
  return { dataset, items, counters };
}

/** Raises the service counters by `counters` (shard 00; the service sums every shard). */
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

export async function loadDataset(client: Doc, table: string, spec: DatasetSpec, concurrency = 12): Promise<Dataset> {
  const { dataset, items, counters } = makeDataset(spec);
  await batchPut(client, table, items, concurrency);
  await addCounters(client, table, counters);
  return dataset;
}
