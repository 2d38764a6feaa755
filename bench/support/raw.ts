/**
 * The raw SDK calls the measured operations make, written out by hand with
 * the bench's own document client: the same commands, in the same order and
 * with the same concurrency, carrying the same items and expressions as the
 * domain code sends (lib/departments/membership.ts + lib/users/changes.ts
 * for E2, departments/bulk-membership.ts + bulk-move/ for E3, lists/users.ts
 * + db/query.ts for E1, groups/groups.ts for G1, groups/members.ts for G4).
 * No middleware, validation,
 * logging, error mapping or response shaping: what is left is the floor an
 * operation's handler is compared against.
 *
 * Keep these in step with the domain code: a raw call that does less than
 * the handler makes the handler look slow, one that does more hides cost.
 * Keys and items are written out here too, as the floor would write them;
 * test/unit/raw-floor.test.ts checks that they stay the items the store
 * modules (lib/store/) write.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { nameSortKey, foldCase } from '../../lib/text';
import type { Doc } from './dataset';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

/** The keys the floor writes (the store modules' layout, written out by hand). */
export const rawKeys = {
  user: (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' }),
  department: (id: string): Key => ({ pk: `DEPT#${id}`, sk: 'DEPT' }),
  audit: (id: string): Key => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' }),
  bulkHeader: (op: string): Key => ({ pk: `BULK#${op}`, sk: 'BULK' }),
  bulkPart: (op: string, part: number): Key => ({ pk: `BULK#${op}`, sk: `PART#${String(part).padStart(4, '0')}` }),
  statsShard: (shard: number): Key => ({ pk: 'STATS', sk: `SHARD#${String(shard).padStart(2, '0')}` }),
  group: (id: string): Key => ({ pk: `GROUP#${id}`, sk: 'GROUP' }),
  groupMember: (id: string, generation: string, userId: string): Key => ({ pk: `MEMBERS#${id}#${generation}`, sk: `USER#${userId}` }),
  userGroup: (userId: string, id: string, generation: string): Key => ({ pk: `USER#${userId}`, sk: `GROUP#${id}#${generation}` }),
};
const {
  user: userKey,
  department: departmentKey,
  audit: auditKey,
  bulkHeader: bulkHeaderKey,
  bulkPart: bulkPartKey,
  statsShard: statsShardKey,
  group: groupKey,
} = rawKeys;
const groupMembersPartition = (id: string, generation: string) => `MEMBERS#${id}#${generation}`;
const usersPartition = (membership: 'IN' | 'OUT') => `USERS#${membership}`;
const AUDIT_PARTITION = 'AUDIT';
const BULK_MOVES_PARTITION = 'BULK';
const STATS_PARTITION = 'STATS';
const STATS_SHARDS = 16;

/** FNV-1a over the id, as the service spreads counters over its shards. */
function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % STATS_SHARDS;
}
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const QUOTAS = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;
type Usage = Record<(typeof QUOTAS)[number], number>;
const newId = () => randomBytes(12).toString('base64url');

const usageOf = (user: Item): Usage => ({
  users: 1,
  activated_users: user.activated ? 1 : 0,
  admins: user.account_role === 'admin' ? 1 : 0,
  managers: user.account_role === 'manager' ? 1 : 0,
  guests: user.account_role === 'guest' ? 1 : 0,
});
const sumUsage = (usages: Usage[]): Usage =>
  Object.fromEntries(QUOTAS.map((q) => [q, usages.reduce((n, u) => n + u[q], 0)])) as unknown as Usage;

const USER_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'account_role',
  'activated',
  'last_login',
  'department_id',
  'created_at',
  'updated_at',
];

/** The stored user item after a department change (lib/store/users.ts userItem). */
export function movedUserItem(stored: Item, departmentId: string | null, at: string): Item {
  const user: Item = {};
  for (const field of USER_FIELDS) user[field] = stored[field] ?? null;
  user.department_id = departmentId;
  user.updated_at = at;
  const sortKey = nameSortKey(String(user.last_name), String(user.id));
  const membership = departmentId ? 'IN' : 'OUT';
  return {
    ...userKey(String(user.id)),
    type: 'user',
    ...user,
    version: Number(stored.version) + 1,
    last_name_folded: foldCase(String(user.last_name)),
    gsi1pk: usersPartition(membership),
    gsi1sk: sortKey,
    gsi3pk: `ROLE#${String(user.account_role)}#${membership}`,
    gsi3sk: sortKey,
    ...(departmentId ? { gsi2pk: `DEPT#${departmentId}`, gsi2sk: sortKey } : {}),
  };
}

export function auditPut(
  table: string,
  operation: string,
  resourceType: string,
  resourceId: string,
  changes: Item,
  at: string,
): TransactItem {
  const id = newId();
  return {
    Put: {
      TableName: table,
      Item: {
        ...auditKey(id),
        type: 'audit',
        id,
        at,
        actor: 'bench',
        operation,
        request_id: randomUUID(),
        resource_type: resourceType,
        resource_id: resourceId,
        changes,
        gsi1pk: AUDIT_PARTITION,
        gsi1sk: `${at}#${id}`,
      },
    },
  };
}

/** lib/store/departments.ts addUsageWrite: counters by `delta`, each raised one under its limit. */
export function usageUpdate(table: string, departmentId: string, delta: Usage, at: string): TransactItem {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1, ':now': at };
  const adds = ['#version :one'];
  const conditions = ['attribute_exists(pk)'];
  for (const q of QUOTAS) {
    if (delta[q] === 0) continue;
    names[`#u_${q}`] = `usage_${q}`;
    values[`:d_${q}`] = delta[q];
    adds.push(`#u_${q} :d_${q}`);
    if (delta[q] > 0) {
      names[`#l_${q}`] = `limit_${q}`;
      conditions.push(`(attribute_not_exists(#l_${q}) OR #u_${q} < #l_${q})`);
    }
  }
  return {
    Update: {
      TableName: table,
      Key: departmentKey(departmentId),
      UpdateExpression: `ADD ${adds.join(', ')} SET updated_at = :now`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** lib/store/departments.ts reserveUsageWrite, for a target without limits. */
export function reservation(table: string, departmentId: string, reserved: Usage, at: string): TransactItem {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1, ':now': at };
  const adds = ['#version :one'];
  const conditions = ['attribute_exists(pk)'];
  for (const q of QUOTAS) {
    if (reserved[q] === 0) continue;
    names[`#u_${q}`] = `usage_${q}`;
    names[`#l_${q}`] = `limit_${q}`;
    values[`:d_${q}`] = reserved[q];
    adds.push(`#u_${q} :d_${q}`);
    conditions.push(`attribute_not_exists(#l_${q})`);
  }
  return {
    Update: {
      TableName: table,
      Key: departmentKey(departmentId),
      UpdateExpression: `ADD ${adds.join(', ')} SET updated_at = :now`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export function statsUpdate(table: string, shardId: string, deltas: Record<string, number>): TransactItem | undefined {
  const entries = Object.entries(deltas).filter(([, d]) => d !== 0);
  if (entries.length === 0) return undefined;
  return {
    Update: {
      TableName: table,
      Key: statsShardKey(shardOf(shardId)),
      UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, d], i) => [`:d${i}`, d])),
    },
  };
}

const transact = (client: Doc, items: TransactItem[]) =>
  client.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() }));

const scale = (usage: Usage, factor: number) => Object.fromEntries(QUOTAS.map((q) => [q, usage[q] * factor])) as unknown as Usage;

// ---------------------------------------------------------------------------

/** E2: read the user, one transaction moving it into `departmentId` (counters of both departments, shard, audit). */
export async function rawE2(client: Doc, table: string, departmentId: string, userId: string): Promise<void> {
  const before = (await client.send(new GetCommand({ TableName: table, Key: userKey(userId), ConsistentRead: true }))).Item!;
  if (before.department_id === departmentId) return;
  const at = new Date().toISOString();
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: movedUserItem(before, departmentId, at),
        ConditionExpression: 'version = :version AND attribute_not_exists(bulk_lock)',
        ExpressionAttributeValues: { ':version': before.version },
      },
    },
  ];
  const usage = usageOf(before);
  if (before.department_id) items.push(usageUpdate(table, String(before.department_id), scale(usage, -1), at));
  items.push(usageUpdate(table, departmentId, usage, at));
  // lib/users/changes.ts statsWrites: -1 on the old counter, +1 on the new; IN -> IN cancels out and writes no shard.
  const role = String(before.account_role);
  const deltas: Record<string, number> = {};
  const from = `users_${before.department_id ? 'IN' : 'OUT'}_${role}`;
  deltas[from] = (deltas[from] ?? 0) - 1;
  deltas[`users_IN_${role}`] = (deltas[`users_IN_${role}`] ?? 0) + 1;
  const stats = statsUpdate(table, userId, deltas);
  if (stats) items.push(stats);
  const changes = { added_user_ids: [userId], ...(before.department_id ? { moved_from: { [userId]: before.department_id } } : {}) };
  items.push(auditPut(table, 'E2', 'department', departmentId, changes, at));
  await transact(client, items);
}

/** bulk-move.ts packParts: users plus the departments they leave, at most 97 items a part. */
function packParts(users: Item[], target: string): Item[][] {
  const budget = 97;
  const parts: Item[][] = [];
  let current: Item[] = [];
  let departments = new Set<string>();
  for (const user of users) {
    const leaves = user.department_id && user.department_id !== target ? String(user.department_id) : null;
    const extra = leaves && !departments.has(leaves) ? 1 : 0;
    if (current.length > 0 && current.length + 1 + departments.size + extra > budget) {
      parts.push(current);
      current = [];
      departments = new Set();
    }
    current.push(user);
    if (leaves) departments.add(leaves);
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

const usageFields = (prefix: string, usage: Usage) => Object.fromEntries(QUOTAS.map((q) => [`${prefix}${q}`, usage[q]]));

/** The header of an E3 bulk move as it is opened (lib/store/bulk-moves.ts headerPut). */
export const bulkHeaderItem = (op: string, target: string, at: string, leaseUntil: string, parts: number, reserved: Usage): Item => ({
  ...bulkHeaderKey(op),
  type: 'bulk_move',
  id: op,
  state: 'preparing',
  operation: 'E3',
  target,
  at,
  lease_until: leaseUntil,
  parts,
  parts_left: parts,
  ...usageFields('reserved_', reserved),
  gsi1pk: BULK_MOVES_PARTITION,
  gsi1sk: `${leaseUntil}#${op}`,
});

/** One part of a bulk move (lib/store/bulk-moves.ts partPut). */
export const bulkPartItem = (op: string, index: number, userIds: string[], usage: Usage): Item => ({
  ...bulkPartKey(op, index),
  type: 'bulk_part',
  user_ids: userIds,
  ...usageFields('usage_', usage),
});

/** The two items of a G4 membership (lib/store/memberships.ts membershipItems). */
export function membershipItemsRaw(groupId: string, generation: string, userId: string, at: string): [Item, Item] {
  const attributes = { group_id: groupId, generation, user_id: userId, added_at: at };
  return [
    { ...rawKeys.groupMember(groupId, generation, userId), type: 'group-member', ...attributes },
    { ...rawKeys.userGroup(userId, groupId, generation), type: 'user-group', ...attributes },
  ];
}

/**
 * E3 of users that are all in other departments and more than one
 * transaction holds: read the target and the users (BatchGetItem, 100 a
 * request, in parallel), then the bulk protocol: reserve, hold each part,
 * apply each part, finish.
 */
export async function rawE3(client: Doc, table: string, departmentId: string, userIds: string[]): Promise<void> {
  const batches: string[][] = [];
  for (let i = 0; i < userIds.length; i += 100) batches.push(userIds.slice(i, i + 100));
  const [, found] = await Promise.all([
    client.send(new GetCommand({ TableName: table, Key: departmentKey(departmentId), ConsistentRead: true })),
    Promise.all(
      batches.map(async (batch) => {
        const result = await client.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: batch.map(userKey), ConsistentRead: true } } }),
        );
        return result.Responses?.[table] ?? [];
      }),
    ),
  ]);
  const byId = new Map(found.flat().map((item) => [String(item.id), item]));
  const users = userIds.map((id) => byId.get(id)!).filter((user) => user.department_id !== departmentId);
  const at = new Date().toISOString();
  const reserved = sumUsage(users.map(usageOf));
  const op = newId();
  const parts = packParts(users, departmentId);
  const leaseUntil = new Date(Date.parse(at) + 60_000).toISOString();

  // Reserve.
  await transact(client, [
    {
      Put: {
        TableName: table,
        Item: bulkHeaderItem(op, departmentId, at, leaseUntil, parts.length, reserved),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    reservation(table, departmentId, reserved, at),
  ]);

  // Hold: the last part's transaction also commits (header -> applying, audit entry).
  const movedFrom = Object.fromEntries(users.filter((u) => u.department_id).map((u) => [String(u.id), u.department_id]));
  const stateIs = { ConditionExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } };
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    const header: TransactItem = last
      ? {
          Update: {
            TableName: table,
            Key: bulkHeaderKey(op),
            UpdateExpression: 'SET #state = :next',
            ...stateIs,
            ExpressionAttributeValues: { ':state': 'preparing', ':next': 'applying' },
          },
        }
      : { ConditionCheck: { TableName: table, Key: bulkHeaderKey(op), ...stateIs, ExpressionAttributeValues: { ':state': 'preparing' } } };
    const items: TransactItem[] = [
      header,
      {
        Put: {
          TableName: table,
          Item: bulkPartItem(
            op,
            index,
            part.map((u) => String(u.id)),
            sumUsage(part.map(usageOf)),
          ),
        },
      },
      ...part.map((user): TransactItem => ({
        Update: {
          TableName: table,
          Key: userKey(String(user.id)),
          UpdateExpression: 'SET bulk_lock = :op',
          ConditionExpression: 'version = :v AND attribute_not_exists(bulk_lock)',
          ExpressionAttributeValues: { ':op': op, ':v': user.version },
        },
      })),
    ];
    if (last) {
      const changes = { added_user_ids: users.map((u) => u.id), ...(Object.keys(movedFrom).length > 0 ? { moved_from: movedFrom } : {}) };
      items.push(auditPut(table, 'E3', 'department', departmentId, changes, at));
    }
    await transact(client, items);
  }

  // Apply.
  for (const [index, part] of parts.entries()) {
    const usage = sumUsage(part.map(usageOf));
    const values: Record<string, unknown> = { ':state': 'applying', ':minus': -1 };
    const adds = ['parts_left :minus'];
    for (const q of QUOTAS) {
      if (usage[q] === 0) continue;
      values[`:r_${q}`] = -usage[q];
      adds.push(`reserved_${q} :r_${q}`);
    }
    const items: TransactItem[] = [
      { Delete: { TableName: table, Key: bulkPartKey(op, index), ConditionExpression: 'attribute_exists(pk)' } },
      {
        Update: {
          TableName: table,
          Key: bulkHeaderKey(op),
          UpdateExpression: `ADD ${adds.join(', ')}`,
          ...stateIs,
          ExpressionAttributeValues: values,
        },
      },
      ...part.map((user): TransactItem => ({
        Put: {
          TableName: table,
          Item: movedUserItem(user, departmentId, at),
          ConditionExpression: 'bulk_lock = :op',
          ExpressionAttributeValues: { ':op': op },
        },
      })),
    ];
    const leaving = new Map<string, Usage[]>();
    for (const user of part) {
      if (user.department_id && user.department_id !== departmentId) {
        const from = String(user.department_id);
        leaving.set(from, [...(leaving.get(from) ?? []), usageOf(user)]);
      }
    }
    for (const [from, usages] of leaving) items.push(usageUpdate(table, from, scale(sumUsage(usages), -1), at));
    const counters: Record<string, number> = {};
    for (const user of part) {
      const from = `users_${user.department_id ? 'IN' : 'OUT'}_${String(user.account_role)}`;
      const to = `users_IN_${String(user.account_role)}`;
      counters[from] = (counters[from] ?? 0) - 1;
      counters[to] = (counters[to] ?? 0) + 1;
    }
    const stats = statsUpdate(table, `${op}#${index}`, counters);
    if (stats) items.push(stats);
    await transact(client, items);
  }

  // Finish.
  await transact(client, [
    {
      Delete: {
        TableName: table,
        Key: bulkHeaderKey(op),
        ConditionExpression: '#state = :state AND parts_left = :zero',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': 'applying', ':zero': 0 },
      },
    },
  ]);
}

/** E1, a page of `count` at offset 0, default sort: one Query of USERS#IN (count + 1 entries) and the counters, in parallel. */
export async function rawE1(client: Doc, table: string, count: number): Promise<void> {
  await Promise.all([
    client.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: '#ipk = :ipk',
        ExpressionAttributeNames: { '#ipk': 'gsi1pk' },
        ExpressionAttributeValues: { ':ipk': usersPartition('IN') },
        ScanIndexForward: true,
        Limit: count + 1,
      }),
    ),
    client.send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': STATS_PARTITION } }),
    ),
  ]);
}

/** G1: the group, its member partition (consistent, user ids only), the users (BatchGetItem, 100 a request, up to 16 at once). */
export async function rawG1(client: Doc, table: string, groupId: string): Promise<void> {
  const group = (await client.send(new GetCommand({ TableName: table, Key: groupKey(groupId), ConsistentRead: true }))).Item!;
  const ids: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': groupMembersPartition(groupId, String(group.generation)) },
        ConsistentRead: true,
        ProjectionExpression: 'user_id',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.user_id));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) batches.push(ids.slice(i, i + 100));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: batch.map(userKey), ConsistentRead: true } } }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, batches.length) }, worker));
}

/** G4: the group and the user (in parallel), the membership, then one transaction (count, user check, both membership items, audit). */
export async function rawG4(client: Doc, table: string, groupId: string, userId: string): Promise<void> {
  const [group] = await Promise.all([
    client.send(new GetCommand({ TableName: table, Key: groupKey(groupId), ConsistentRead: true })).then((r) => r.Item!),
    client.send(new GetCommand({ TableName: table, Key: userKey(userId), ConsistentRead: true })),
  ]);
  const generation = String(group.generation);
  const member = await client.send(
    new GetCommand({ TableName: table, Key: rawKeys.groupMember(groupId, generation, userId), ConsistentRead: true }),
  );
  if (member.Item) return;
  const at = new Date().toISOString();
  const [groupSide, userSide] = membershipItemsRaw(groupId, generation, userId, at);
  await transact(client, [
    {
      Update: {
        TableName: table,
        Key: groupKey(groupId),
        UpdateExpression: 'SET updated_at = :now ADD user_count :delta, version :one',
        ConditionExpression: 'attribute_exists(pk) AND generation = :generation AND #state = :active AND user_count <= :most',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':delta': 1, ':one': 1, ':now': at, ':generation': generation, ':active': 'active', ':most': 9999 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: userKey(userId),
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(group_lock) OR group_lock < :now)',
        ExpressionAttributeValues: { ':now': at },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: table,
        Item: groupSide,
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: table, Item: userSide } },
    auditPut(table, 'G4', 'group', groupId, { added_user_ids: [userId] }, at),
  ]);
}
