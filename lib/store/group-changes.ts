/**
 * The items of a change of a group's members too large for one transaction
 * (lib/groups/bulk-change.ts has the protocol):
 *
 * | item   | pk                | sk          | byName index                                        |
 * |--------|-------------------|-------------|-----------------------------------------------------|
 * | header | GROUPCHANGE#<id>  | CHANGE      | GROUPCHANGES, <lease_until>#<id> (open changes, by when their driver is presumed dead) |
 * | part   | GROUPCHANGE#<id>  | PART#<nnnn> |                                                     |
 *
 * The header holds the change's state (`preparing` → `applying`) and its
 * group (id and generation); a part, the users one transaction adds to the
 * group and removes from it. The group item holds `change_id` from the
 * commit to the end (store/groups.ts).
 */
import { partitionItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { queryStream } from '../db/query';
import { INDEXES, TTL_ATTRIBUTE, type Item, type Key } from '../db/table';
import { put, remove, update, type Explain, type Write } from '../db/transact';
import type { GroupRef } from './groups';

const GROUP_CHANGE_STATES = ['preparing', 'applying'] as const;
export type GroupChangeState = (typeof GROUP_CHANGE_STATES)[number];

const changePartition = (id: string) => `GROUPCHANGE#${id}`;
const PART_PREFIX = 'PART#';
const OPEN_CHANGES_PARTITION = 'GROUPCHANGES';

const headerKind = attr.itemKind({
  type: 'group_change',
  key: (id: string): Key => ({ pk: changePartition(id), sk: 'CHANGE' }),
  attributes: {
    id: attr.string,
    state: attr.oneOf(GROUP_CHANGE_STATES),
    group_id: attr.string,
    generation: attr.string,
    lease_until: attr.string,
  },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

const partKind = attr.itemKind({
  type: 'group_change_part',
  key: (id: string, index: number): Key => ({ pk: changePartition(id), sk: `${PART_PREFIX}${String(index).padStart(4, '0')}` }),
  attributes: { change_id: attr.string, adds: attr.stringList, removes: attr.stringList, [TTL_ATTRIBUTE]: attr.number },
  indexAttributes: {},
});

const headerKey = headerKind.key;
export const partKey = partKind.key;

export interface GroupChangeHeader {
  id: string;
  state: GroupChangeState;
  group: GroupRef;
}

export interface GroupChangePart {
  index: number;
  adds: string[];
  removes: string[];
}

function toHeader(item: Item): GroupChangeHeader {
  const { id, state, group_id, generation } = headerKind.read(item);
  return { id, state, group: { id: group_id, generation } };
}

/** Opens a change in state `preparing`. */
export const headerPut = (change: { id: string; group: GroupRef; leaseUntil: string }): Write =>
  put(
    headerKind.item(headerKey(change.id), {
      id: change.id,
      state: 'preparing',
      group_id: change.group.id,
      generation: change.group.generation,
      lease_until: change.leaseUntil,
      gsi1pk: OPEN_CHANGES_PARTITION,
      gsi1sk: `${change.leaseUntil}#${change.id}`,
    }),
    new Condition().whenAbsent(),
  );

/** Parts expire a day after they were written: only a part whose header was discarded and that a crash left behind lives that long. */
const PART_TTL_SECONDS = 24 * 3600;

export const partPut = (changeId: string, part: GroupChangePart, now: number): Write =>
  put(
    partKind.item(partKey(changeId, part.index), {
      change_id: changeId,
      adds: part.adds,
      removes: part.removes,
      [TTL_ATTRIBUTE]: Math.floor(now / 1000) + PART_TTL_SECONDS,
    }),
  );

/** The commit point: `preparing` → `applying`. */
export const headerApplying = (changeId: string, explain: Explain): Write =>
  update(headerKey(changeId), new Update().set('state', 'applying').whenEquals('state', 'preparing'), { explain });

/**
 * Hands a committed change to the healer at once (its lease ends `now`): its
 * request answered before it was applied (lib/slow-changes.ts).
 */
export const headerHandOff = (changeId: string, now: string): Write =>
  update(headerKey(changeId), new Update().setAll({ lease_until: now, gsi1sk: `${now}#${changeId}` }).whenEquals('state', 'applying'));

/** A part applied (or given up, before the commit): deleted, if still there. */
export const partDelete = (changeId: string, index: number, explain?: Explain): Write =>
  remove(partKey(changeId, index), explain ? new Condition().whenExists() : undefined, { explain });

/** Closes a change; with `state`, only a change in that state (a discard must not close a change that committed meanwhile). */
export function headerDelete(changeId: string, state?: GroupChangeState, explain?: Explain): Write {
  return remove(headerKey(changeId), state ? new Condition().whenEquals('state', state) : undefined, { explain });
}

/** The header and remaining parts of a change, read strongly. */
export async function readGroupChange(changeId: string): Promise<{ header?: GroupChangeHeader; parts: GroupChangePart[] }> {
  let header: GroupChangeHeader | undefined;
  const parts: GroupChangePart[] = [];
  for await (const item of partitionItems(changePartition(changeId))) {
    if (headerKind.is(item)) header = toHeader(item);
    else parts.push(toPart(item));
  }
  return { header, parts };
}

function toPart(item: Item): GroupChangePart {
  const { adds, removes } = partKind.read(item);
  return { index: Number(attr.keyOf(item).sk.slice(PART_PREFIX.length)), adds, removes };
}

/** Open changes whose lease ended before `now`: their driver is presumed dead. */
export async function staleGroupChanges(now: string): Promise<GroupChangeHeader[]> {
  const stale: GroupChangeHeader[] = [];
  for await (const item of queryStream({ index: INDEXES.byName, partition: OPEN_CHANGES_PARTITION, sortKeyBetween: { to: now } })) {
    stale.push(toHeader(item));
  }
  return stale;
}

/** Whether a change of this group is open (a G3's commit may still be in flight): the open changes are few, read whole. */
export async function hasOpenChange(groupId: string): Promise<boolean> {
  for await (const item of queryStream({ index: INDEXES.byName, partition: OPEN_CHANGES_PARTITION })) {
    if (headerKind.read(item).group_id === groupId) return true;
  }
  return false;
}

/**
 * What the open changes applying to each group (by `<id>#<generation>`) have
 * yet to add and remove, from raw items (the invariant checker reads the
 * whole table): the group's `user_count` already holds it.
 */
export function pendingMemberChanges(items: Item[]): Map<string, { adds: string[]; removes: string[] }> {
  const applying = new Map<string, string>();
  for (const item of items) {
    if (!headerKind.is(item)) continue;
    const header = toHeader(item);
    if (header.state === 'applying') applying.set(header.id, `${header.group.id}#${header.group.generation}`);
  }
  const pending = new Map<string, { adds: string[]; removes: string[] }>();
  for (const item of items) {
    const group = partKind.is(item) ? applying.get(partKind.read(item).change_id) : undefined;
    if (!group) continue;
    const sum = pending.get(group) ?? { adds: [], removes: [] };
    const part = toPart(item);
    sum.adds.push(...part.adds);
    sum.removes.push(...part.removes);
    pending.set(group, sum);
  }
  return pending;
}
