/**
 * Bulk department moves (E3, E5): all-or-nothing changes of up to 1,000 users.
 *
 * A DynamoDB transaction holds at most 100 items, so a move that does not fit
 * in one is a short protocol of transactions, recorded in a header item
 * (`BULK#<op>`/`BULK`) and one part item per chunk of users (`PART#n`):
 *
 * 1. Reserve. One transaction puts the header (`preparing`, with the whole
 *    addition as `reserved_*`) and adds that addition to the target
 *    department's counters, conditional on each raised limit still being the
 *    one read and on `usage <= limit - k`. Over a limit: 409 with overages,
 *    computed from the department as it stood, and nothing else happened. The
 *    reservation also counts as users for E8, so the target cannot be
 *    deleted under the move.
 * 2. Hold. Per chunk, one transaction puts the part item and sets
 *    `bulk_lock` on its users, conditional on each user being at the version
 *    read and not held, and on the header still `preparing`. Every other user
 *    write is conditional on `attribute_not_exists(bulk_lock)`, so a held user
 *    cannot change. The last hold also turns the header to `applying` and
 *    writes the audit entry: that is the commit point. Any failure before it
 *    (a user changed, vanished or is held by another move) rolls back: mark
 *    the header `aborting`, release each part's users, delete the header and
 *    release the reservation. Then the request starts over from a fresh read.
 * 3. Apply. Per part, one transaction rewrites its users in the target
 *    (conditional on `bulk_lock` = this move; the rewrite drops the lock),
 *    takes them off their old departments' counters, moves the service
 *    counters, deletes the part and takes the part's usage off the header's
 *    `reserved_*` (the target's counters already hold it). Held users cannot
 *    fail a condition here; throttling and conflicts are retried.
 * 4. Finish. Delete the header, conditional on no part being left.
 *
 * Invariant, at every step and after any crash: each department's counters
 * equal its members plus the `reserved_*` of open moves into it. So no limit
 * is passed (the reservation was checked), and no user is lost or doubled
 * (a user changes department only in an apply transaction, with its counters).
 *
 * Healing. A driver that dies (timeout, crash) leaves its header, which sits
 * in index partition `BULK` sorted by `lease_until`: the start plus
 * BULK_LEASE_MS, far beyond the 10 s a route function may run. The
 * maintenance function (every minute on AWS, every few seconds under
 * `npm start`) calls `healBulkMoves`, which finishes every header whose lease
 * has passed: `preparing`/`aborting` are rolled back, `applying` is rolled
 * forward from the parts that remain. Every step is conditional on the state it
 * expects (part present, user held by this move, header state), so a
 * straggling driver and the healer cannot apply anything twice; until the
 * heal, the counters are exact but the target keeps the reservation.
 *
 * A move that fits in one transaction (up to ~45 users) skips the protocol
 * and is a single transaction, like E2.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { partitionItems } from '../db/bulk';
import { db, tableName } from '../db/client';
import { BULK_MOVES_PARTITION, bulkHeaderKey, bulkPartition, bulkPartKey, membershipOf, userKey } from '../db/keys';
import type { Item } from '../db/query';
import { INDEXES } from '../db/table';
import { MAX_TRANSACTION_ITEMS, StaleReadError, transactWrite, type Write } from '../db/transact';
import { DomainError } from '../errors';
import { newId } from '../ids';
import { log } from '../log';
import { auditWrite, type AuditRecord, type ChangeContext } from './audit';
import { departmentReservation, departmentUsageUpdate } from './department-usage';
import { COUNTED_QUOTAS, isZeroUsage, NO_USAGE, scaleUsage, sumUsage, usageOf, type Usage } from './quotas';
import { addCounters, statsUpdate, userCounter } from './stats';
import { explainDepartmentFailure, userItem } from './user-changes';
import { findUsers, userRepresentation, type StoredUser } from './users';

/** How long after its start a move's driver is presumed dead. */
export const BULK_LEASE_MS = 60_000;

type MoveState = 'preparing' | 'applying' | 'aborting';

export interface BulkMove {
  ctx: ChangeContext;
  /** Department the users go to; null takes them out of their department (E5). */
  target: string | null;
  /** The target department as read: its limits bound the reservation. */
  targetItem?: Item;
  /** Users that change, as read; none of them is in `target` already. */
  users: StoredUser[];
  audit: AuditRecord;
}

/** Applies the move, all or nothing. Answers the time written as the users' `updated_at`. */
export async function runBulkMove(move: BulkMove): Promise<string> {
  const at = new Date().toISOString();
  const reserved = move.target ? sumUsage(move.users.map(usageOf)) : NO_USAGE;
  const single = singleTransaction(move, reserved, at);
  if (single) {
    await transactWrite(single);
    return at;
  }

  const op = newId();
  const parts = packParts(move.users, move.target);
  await transactWrite([headerPut(op, move, reserved, parts.length, at), ...reservationWrites(move, reserved, at)]);
  try {
    for (const [index, users] of parts.entries()) {
      const commit = index === parts.length - 1 ? auditWrite(move.ctx, move.audit, at) : undefined;
      await transactWrite(holdWrites(op, index, users, commit));
    }
  } catch (error) {
    const rolledBack = await rollBack(op).catch(async (rollBackError: unknown) => {
      await log('warn', 'bulk move rollback left to the healer', { op, rollBackError });
      return true; // unknown: the healer decides after the lease
    });
    // false: the commit had in fact landed (its answer was lost), so the move goes ahead.
    if (rolledBack) throw error;
  }
  try {
    for (const [index, users] of parts.entries()) {
      await applyCommitted(applyWrites({ op, target: move.target, at }, index, users));
    }
    await finish(op);
  } catch (error) {
    await log('error', 'bulk move committed but not fully applied; the healer completes it', { op, error });
    throw new DomainError('unavailable', 'The change is accepted and is being completed; read the users again in a minute.');
  }
  return at;
}

/** The users as they are after the move. */
export const movedUser = (user: StoredUser, target: string | null, at: string): StoredUser => ({
  ...userRepresentation(user),
  department_id: target,
  updated_at: at,
  version: user.version + 1,
});

function reservationWrites(move: BulkMove, reserved: Usage, at: string): Write[] {
  if (!move.target || isZeroUsage(reserved)) return [];
  return [
    {
      item: departmentReservation(move.target, reserved, move.targetItem ?? {}, at),
      explain: explainDepartmentFailure(move.target, reserved),
    },
  ];
}

/** The writes that move `users` out of their departments into `target`, with the service counters. */
function moveWrites(users: StoredUser[], target: string | null, at: string, heldBy: string | null, shardId: string): Write[] {
  const writes: Write[] = users.map((user) => {
    const condition = heldBy
      ? { ConditionExpression: 'bulk_lock = :op', ExpressionAttributeValues: { ':op': heldBy } }
      : { ConditionExpression: 'version = :v AND attribute_not_exists(bulk_lock)', ExpressionAttributeValues: { ':v': user.version } };
    return {
      item: { Put: { TableName: tableName(), Item: userItem(movedUser(user, target, at), user.version + 1), ...condition } },
      explain: () => new StaleReadError(),
    };
  });
  const leaving = new Map<string, Usage[]>();
  for (const user of users) {
    if (user.department_id && user.department_id !== target) {
      leaving.set(user.department_id, [...(leaving.get(user.department_id) ?? []), usageOf(user)]);
    }
  }
  for (const [departmentId, usages] of leaving) {
    writes.push({ item: departmentUsageUpdate(departmentId, scaleUsage(sumUsage(usages), -1), at), explain: () => new StaleReadError() });
  }
  const counters = addCounters(
    ...users.flatMap((user) => [
      { [userCounter(user.account_role, membershipOf(user.department_id))]: -1 },
      { [userCounter(user.account_role, membershipOf(target))]: 1 },
    ]),
  );
  const stats = statsUpdate(shardId, counters);
  if (stats) writes.push({ item: stats });
  return writes;
}

/** The whole move as one transaction, when it fits in one. */
function singleTransaction(move: BulkMove, reserved: Usage, at: string): Write[] | undefined {
  if (move.users.length >= MAX_TRANSACTION_ITEMS) return undefined;
  const writes = [
    ...reservationWrites(move, reserved, at),
    ...moveWrites(move.users, move.target, at, null, move.users[0]?.id ?? at),
    auditWrite(move.ctx, move.audit, at),
  ];
  return writes.length <= MAX_TRANSACTION_ITEMS ? writes : undefined;
}

/**
 * Splits users into parts whose hold and apply transactions fit: a hold is
 * the users + part + header + audit, an apply the users + their old
 * departments + stats + part + header.
 */
function packParts(users: StoredUser[], target: string | null): StoredUser[][] {
  const budget = MAX_TRANSACTION_ITEMS - 3;
  const parts: StoredUser[][] = [];
  let current: StoredUser[] = [];
  let departments = new Set<string>();
  for (const user of users) {
    const leaves = user.department_id && user.department_id !== target ? user.department_id : null;
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

const usageFields = (prefix: string, usage: Usage) => Object.fromEntries(COUNTED_QUOTAS.map((q) => [`${prefix}${q}`, usage[q]]));
const usageFrom = (prefix: string, item: Item) =>
  Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, Number(item[`${prefix}${q}`] ?? 0)])) as Usage;

/** Usage still reserved by an open move's header (the invariant checker reads this too). */
export const reservedUsage = (header: Item): Usage => usageFrom('reserved_', header);

function headerPut(op: string, move: BulkMove, reserved: Usage, parts: number, at: string): Write {
  const leaseUntil = new Date(Date.parse(at) + BULK_LEASE_MS).toISOString();
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...bulkHeaderKey(op),
          type: 'bulk_move',
          id: op,
          state: 'preparing' satisfies MoveState,
          operation: move.ctx.operationId,
          target: move.target,
          at,
          lease_until: leaseUntil,
          parts,
          parts_left: parts,
          ...usageFields('reserved_', reserved),
          gsi1pk: BULK_MOVES_PARTITION,
          gsi1sk: `${leaseUntil}#${op}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/** Condition on the header's state; the caller binds `:state`. */
const STATE_IS = { ConditionExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } };

function holdWrites(op: string, index: number, users: StoredUser[], commit: Write | undefined): Write[] {
  const usage = sumUsage(users.map(usageOf));
  const part: Write = {
    item: {
      Put: {
        TableName: tableName(),
        Item: { ...bulkPartKey(op, index), type: 'bulk_part', user_ids: users.map((u) => u.id), ...usageFields('usage_', usage) },
      },
    },
  };
  const holds: Write[] = users.map((user) => ({
    item: {
      Update: {
        TableName: tableName(),
        Key: userKey(user.id),
        UpdateExpression: 'SET bulk_lock = :op',
        ConditionExpression: 'version = :v AND attribute_not_exists(bulk_lock)',
        ExpressionAttributeValues: { ':op': op, ':v': user.version },
      },
    },
    explain: () => new StaleReadError(),
  }));
  const header: Write = commit
    ? {
        item: {
          Update: {
            TableName: tableName(),
            Key: bulkHeaderKey(op),
            UpdateExpression: 'SET #state = :next',
            ...STATE_IS,
            ExpressionAttributeValues: { ':state': 'preparing', ':next': 'applying' },
          },
        },
        explain: () => new StaleReadError(),
      }
    : {
        item: {
          ConditionCheck: {
            TableName: tableName(),
            Key: bulkHeaderKey(op),
            ...STATE_IS,
            ExpressionAttributeValues: { ':state': 'preparing' },
          },
        },
        explain: () => new StaleReadError(),
      };
  return [header, part, ...holds, ...(commit ? [commit] : [])];
}

/** Raised when a part was already applied or released by someone else (a straggling driver or the healer). */
class PartGone extends Error {}

interface MoveInfo {
  op: string;
  target: string | null;
  at: string;
}

function applyWrites(move: MoveInfo, index: number, users: StoredUser[]): Write[] {
  const usage = move.target ? sumUsage(users.map(usageOf)) : NO_USAGE;
  const values: Record<string, unknown> = { ':state': 'applying', ':minus': -1 };
  const adds = ['parts_left :minus'];
  for (const quota of COUNTED_QUOTAS) {
    if (usage[quota] === 0) continue;
    values[`:r_${quota}`] = -usage[quota];
    adds.push(`reserved_${quota} :r_${quota}`);
  }
  return [
    {
      item: { Delete: { TableName: tableName(), Key: bulkPartKey(move.op, index), ConditionExpression: 'attribute_exists(pk)' } },
      explain: () => new PartGone(),
    },
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: bulkHeaderKey(move.op),
          UpdateExpression: `ADD ${adds.join(', ')}`,
          ...STATE_IS,
          ExpressionAttributeValues: values,
        },
      },
      explain: () => new PartGone(),
    },
    ...moveWrites(users, move.target, move.at, move.op, `${move.op}#${index}`),
  ];
}

async function finish(op: string): Promise<void> {
  await transactWrite([
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: bulkHeaderKey(op),
          ConditionExpression: '#state = :state AND parts_left = :zero',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':state': 'applying', ':zero': 0 },
        },
      },
      explain: () => new PartGone(),
    },
  ]).catch(ignorePartGone);
}

const APPLY_ROUNDS = 5;

/**
 * Applies one part of a committed move. Contention cannot be answered with a
 * 409 any more (the move is decided), so conflicts get more rounds of
 * retries than a single transaction would; only lasting throttling gives up.
 */
async function applyCommitted(writes: Write[]): Promise<void> {
  for (let round = 1; ; round++) {
    try {
      await transactWrite(writes);
      return;
    } catch (error) {
      if (error instanceof PartGone) return;
      const contended = error instanceof DomainError && error.slug === 'conflict';
      if (!contended || round >= APPLY_ROUNDS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * round));
    }
  }
}

function ignorePartGone(error: unknown): void {
  if (!(error instanceof PartGone)) throw error;
}

/** The header and remaining parts of a move, read strongly. */
async function readMove(op: string): Promise<{ header?: Item; parts: Item[] }> {
  const items: Item[] = [];
  for await (const item of partitionItems(bulkPartition(op))) items.push(item);
  return { header: items.find((item) => item.sk === 'BULK'), parts: items.filter((item) => item.sk !== 'BULK') };
}

const partIndex = (part: Item) => Number(String(part.sk).slice('PART#'.length));

/**
 * Undoes a move that never reached its commit point. Answers false when the
 * move had committed (roll it forward instead); true when it is undone or was
 * already gone.
 */
async function rollBack(op: string): Promise<boolean> {
  try {
    await transactWrite([
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: bulkHeaderKey(op),
            UpdateExpression: 'SET #state = :aborting',
            ConditionExpression: '#state IN (:preparing, :aborting)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':preparing': 'preparing', ':aborting': 'aborting' },
          },
        },
        explain: () => new PartGone(),
      },
    ]);
  } catch (error) {
    ignorePartGone(error);
    const { header } = await readMove(op);
    return header?.state !== 'applying'; // gone means someone else already rolled it back
  }
  const { header, parts } = await readMove(op);
  if (!header) return true;
  for (const part of parts) {
    const release: Write[] = (part.user_ids as string[]).map((userId) => ({
      item: {
        Update: {
          TableName: tableName(),
          Key: userKey(userId),
          UpdateExpression: 'REMOVE bulk_lock',
          ConditionExpression: 'bulk_lock = :op',
          ExpressionAttributeValues: { ':op': op },
        },
      },
    }));
    const partDelete: Write = {
      item: {
        Delete: {
          TableName: tableName(),
          Key: { pk: part.pk as string, sk: part.sk as string },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      explain: () => new PartGone(),
    };
    await transactWrite([partDelete, ...release]).catch(ignorePartGone);
  }
  const reserved = reservedUsage(header);
  const at = new Date().toISOString();
  await transactWrite([
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: bulkHeaderKey(op),
          ...STATE_IS,
          ExpressionAttributeValues: { ':state': 'aborting' },
        },
      },
      explain: () => new PartGone(),
    },
    ...(header.target && !isZeroUsage(reserved)
      ? [{ item: departmentUsageUpdate(String(header.target), scaleUsage(reserved, -1), at) }]
      : []),
  ]).catch(ignorePartGone);
  return true;
}

/** Completes a committed move from the parts that remain. */
async function rollForward(op: string): Promise<void> {
  const { header, parts } = await readMove(op);
  if (!header) return;
  const move: MoveInfo = { op, target: (header.target as string | null) ?? null, at: String(header.at) };
  for (const part of parts) {
    const users = [...(await findUsers(part.user_ids as string[])).values()];
    await applyCommitted(applyWrites(move, partIndex(part), users));
  }
  await finish(op);
}

/**
 * Finishes every bulk move whose driver is presumed dead (lease passed):
 * rolled back before its commit point, forward after it. Answers how many.
 */
export async function healBulkMoves(now = Date.now()): Promise<number> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.byName.name,
      KeyConditionExpression: '#pk = :pk AND #sk < :now',
      ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey, '#sk': INDEXES.byName.sortKey },
      ExpressionAttributeValues: { ':pk': BULK_MOVES_PARTITION, ':now': new Date(now).toISOString() },
    }),
  );
  let healed = 0;
  for (const header of result.Items ?? []) {
    const op = String(header.id);
    if (header.state === 'applying' || !(await rollBack(op))) await rollForward(op);
    healed++;
  }
  return healed;
}

/** Every open move's reservation per target department (for the invariant checker and tests). */
export function openReservations(items: Item[]): Map<string, Usage> {
  const byDepartment = new Map<string, Usage>();
  for (const item of items) {
    if (item.type !== 'bulk_move' || !item.target) continue;
    const target = String(item.target);
    byDepartment.set(target, sumUsage([byDepartment.get(target) ?? NO_USAGE, reservedUsage(item)]));
  }
  return byDepartment;
}
