/**
 * The items of a bulk department move (lib/departments/bulk-move/ has the
 * protocol):
 *
 * | item   | pk         | sk          | byName index                       |
 * |--------|------------|-------------|------------------------------------|
 * | header | BULK#<op>  | BULK        | BULK, <lease_until>#<op> (open moves, by when their driver is presumed dead) |
 * | part   | BULK#<op>  | PART#<nnnn> |                                    |
 *
 * The header holds the move's state (`preparing` → `applying`, or
 * `aborting`), its target, how many parts are left, and `reserved_<quota>`:
 * what it added to the target's counters ahead of moving the users. A part
 * holds the ids of one chunk of users and their usage.
 */
import { partitionItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { queryStream } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { check, put, remove, update, type Explain, type Write } from '../db/transact';
import { COUNTED_QUOTAS } from '../schemas/enums';
import { NO_USAGE, perQuota, type Usage } from './departments';

const MOVE_STATES = ['preparing', 'applying', 'aborting'] as const;
export type MoveState = (typeof MOVE_STATES)[number];

const movePartition = (op: string) => `BULK#${op}`;
const PART_PREFIX = 'PART#';
const OPEN_MOVES_PARTITION = 'BULK';

const count = attr.orElse(attr.number, 0);

const headerKind = attr.itemKind({
  type: 'bulk_move',
  key: (op: string): Key => ({ pk: movePartition(op), sk: 'BULK' }),
  attributes: {
    id: attr.string,
    state: attr.oneOf(MOVE_STATES),
    operation: attr.string,
    target: attr.nullable(attr.string),
    at: attr.string,
    lease_until: attr.string,
    parts: attr.number,
    parts_left: attr.number,
    reserved_users: count,
    reserved_activated_users: count,
    reserved_admins: count,
    reserved_managers: count,
    reserved_guests: count,
  },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

const partKind = attr.itemKind({
  type: 'bulk_part',
  key: (op: string, part: number): Key => ({ pk: movePartition(op), sk: `${PART_PREFIX}${String(part).padStart(4, '0')}` }),
  attributes: {
    user_ids: attr.stringList,
    usage_users: count,
    usage_activated_users: count,
    usage_admins: count,
    usage_managers: count,
    usage_guests: count,
  },
  indexAttributes: {},
});

export const headerKey = headerKind.key;
const partKey = partKind.key;

export interface MoveHeader {
  op: string;
  state: MoveState;
  target: string | null;
  /** When the move started: the users' `updated_at`. */
  at: string;
  /** Usage still reserved on the target by this move. */
  reserved: Usage;
}

export interface MovePart {
  index: number;
  userIds: string[];
}

function toHeader(item: Item): MoveHeader {
  const header = headerKind.read(item);
  return {
    op: header.id,
    state: header.state,
    target: header.target,
    at: header.at,
    reserved: perQuota((q) => header[`reserved_${q}`]),
  };
}

/** Hands a committed move to the healer at once (its lease ends `now`): its request answered first (lib/slow-changes.ts). */
export const headerHandOff = (op: string, now: string): Write =>
  update(headerKey(op), new Update().setAll({ lease_until: now, gsi1sk: `${now}#${op}` }).whenEquals('state', 'applying'));

/** Opens a move in state `preparing`, with its whole addition reserved. */
export function headerPut(move: {
  op: string;
  operation: string;
  target: string | null;
  at: string;
  leaseUntil: string;
  parts: number;
  reserved: Usage;
}): Write {
  const { reserved } = move;
  return put(
    headerKind.item(headerKey(move.op), {
      id: move.op,
      state: 'preparing',
      operation: move.operation,
      target: move.target,
      at: move.at,
      lease_until: move.leaseUntil,
      parts: move.parts,
      parts_left: move.parts,
      reserved_users: reserved.users,
      reserved_activated_users: reserved.activated_users,
      reserved_admins: reserved.admins,
      reserved_managers: reserved.managers,
      reserved_guests: reserved.guests,
      gsi1pk: OPEN_MOVES_PARTITION,
      gsi1sk: `${move.leaseUntil}#${move.op}`,
    }),
    new Condition().whenAbsent(),
  );
}

export const partPut = (op: string, index: number, userIds: string[], usage: Usage): Write =>
  put(
    partKind.item(partKey(op, index), {
      user_ids: userIds,
      usage_users: usage.users,
      usage_activated_users: usage.activated_users,
      usage_admins: usage.admins,
      usage_managers: usage.managers,
      usage_guests: usage.guests,
    }),
  );

/** The header must be in `state`. */
export const headerInState = (op: string, state: MoveState, explain: Explain): Write =>
  check(headerKey(op), new Condition().whenEquals('state', state), { explain });

/** Moves the header from one of `from` to `to`. */
export function headerTransition(op: string, from: MoveState[], to: MoveState, explain: Explain): Write {
  const changes = new Update().set('state', to);
  changes.when(`${changes.name('state')} IN (${from.map((state) => changes.value(state)).join(', ')})`);
  return update(headerKey(op), changes, { explain });
}

/** One part applied: it is deleted, and the header counts it off with its share of the reservation. */
export function partApplied(op: string, index: number, appliedUsage: Usage, explain: Explain): Write[] {
  const changes = new Update().add('parts_left', -1).whenEquals('state', 'applying');
  for (const quota of COUNTED_QUOTAS) if (appliedUsage[quota] !== 0) changes.add(`reserved_${quota}`, -appliedUsage[quota]);
  return [remove(partKey(op, index), new Condition().whenExists(), { explain }), update(headerKey(op), changes, { explain })];
}

/** One part released (a roll-back): deleted, if still there. */
export const partReleased = (op: string, index: number, explain: Explain): Write =>
  remove(partKey(op, index), new Condition().whenExists(), { explain });

/** Closes a move: in `applying` with no part left, or in `aborting`. */
export function headerDelete(op: string, state: 'applying' | 'aborting', explain: Explain): Write {
  const condition = new Condition().whenEquals('state', state);
  if (state === 'applying') condition.whenEquals('parts_left', 0);
  return remove(headerKey(op), condition, { explain });
}

/** The header and remaining parts of a move, read strongly. */
export async function readMove(op: string): Promise<{ header?: MoveHeader; parts: MovePart[] }> {
  let header: MoveHeader | undefined;
  const parts: MovePart[] = [];
  for await (const item of partitionItems(movePartition(op))) {
    if (headerKind.is(item)) header = toHeader(item);
    else parts.push({ index: Number(attr.keyOf(item).sk.slice(PART_PREFIX.length)), userIds: partKind.read(item).user_ids });
  }
  return { header, parts };
}

/** Open moves whose lease ended before `now`: their driver is presumed dead. */
export async function staleMoves(now: string): Promise<MoveHeader[]> {
  const stale: MoveHeader[] = [];
  for await (const item of queryStream({ index: INDEXES.byName, partition: OPEN_MOVES_PARTITION, sortKeyBetween: { to: now } })) {
    stale.push(toHeader(item));
  }
  return stale;
}

/** Every open move's reservation per target department, from raw items (the invariant checker reads the whole table). */
export function openReservations(items: Item[]): Map<string, Usage> {
  const byDepartment = new Map<string, Usage>();
  for (const item of items) {
    if (!headerKind.is(item)) continue;
    const { target, reserved } = toHeader(item);
    if (!target) continue;
    const sum = byDepartment.get(target) ?? NO_USAGE;
    byDepartment.set(
      target,
      perQuota((q) => sum[q] + reserved[q]),
    );
  }
  return byDepartment;
}

/** Whether a raw item is a part of move `op` holding `userId` (for the invariant checker). */
export const partHolds = (item: Item, op: string, userId: string) =>
  item.pk === movePartition(op) && partKind.is(item) && partKind.read(item).user_ids.includes(userId);
