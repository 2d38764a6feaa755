/**
 * The items that make rule groups follow user changes (lib/groups/rule-work.ts runs them):
 *
 * | item       | pk                          | sk          | byName index                               |
 * |------------|-----------------------------|-------------|--------------------------------------------|
 * | rule work  | RULEWORK#user#<id>          | WORK        | RULEWORK#<shard>, <at>#user#<id>           |
 * | rule work  | RULEWORK#users#<id>         | WORK        | RULEWORK#<shard>, <at>#users#<id>          |
 * | rule work  | RULEWORK#group#<id>         | WORK        | RULEWORK#<shard>, <at>#group#<id>          |
 * | rule index | RULEINDEX#<department or *> | GROUP#<id>  |                                            |
 *
 * A user's rule work is written in the transaction of every change of its
 * cell (department, role, activation; lib/store/users.ts userWrites): one
 * small item per user, rewritten by each change, holding the cells it left
 * since it was last followed (`from_cells`) and a `stamp` made anew by
 * each write, so that the worker deletes it only if no change came after
 * what it followed. A bulk move writes one item for each part's users
 * instead (`users`, with each one's old cell). A group's rule work is written with each change of its
 * rule (and when a group at its limit has room again): apply the rule.
 * The table's stream carries both to the RuleWorker; locally, and for the
 * maintenance function, the byName partitions RULEWORK#0 to
 * RULEWORK#<RULE_WORK_SHARDS - 1> list them by age (the shard follows from
 * the item's key: a user's rewritten work stays in its shard), and a reader
 * merges them all.
 *
 * The rule index lists each rule group under every department its rule
 * names, or under `*` when it names none, with its rule: a user change
 * reads the entries of its old and new departments and `*` — the rules
 * that can include either of its cells — never the others.
 */
import { partitionItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import { queryStream } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { put, remove, update, type Write } from '../db/transact';
import { newId, shardOfKey } from '../ids';
import { compareCodePoints } from '../text';

const SUBJECTS = ['user', 'users', 'group'] as const;
export type RuleWorkSubject = (typeof SUBJECTS)[number];

/**
 * The byName partitions that list pending work. A change of a user's cell costs its shard 2 index write units: its
 * work's entry put (1) and deleted by the worker (1), or, while earlier work is pending, the entry moved (2), one
 * deletion ending them all. A partition's 1,000 write units a second follow 500 changes a second; 4 shards follow
 * 2,000, what the audit trail's 4 take, above what a change's other partitions allow (docs/rule-groups.md, "How many
 * changes a second"). The sort keys start with the time, so DynamoDB splitting a hot partition by its sort keys would
 * not spread the writes: they always land at its end. Each shard costs the local poller's and the maintenance
 * sweep's reads one Query more. Raising it needs no migration (readers read every shard below it; a user's pending
 * entry moves on its next change); lowering it would hide from the sweep the work of the shards dropped.
 */
export const RULE_WORK_SHARDS = 4;

const WORK_PARTITION_PREFIX = 'RULEWORK#';

const workKeyOf = (subject: RuleWorkSubject, id: string): Key => ({ pk: `RULEWORK#${subject}#${id}`, sk: 'WORK' });

/** The partition listing a piece of work: from its key, so a user's work, rewritten by each change, stays in one. */
const workPartition = (subject: RuleWorkSubject, id: string) =>
  `${WORK_PARTITION_PREFIX}${shardOfKey(workKeyOf(subject, id).pk, RULE_WORK_SHARDS)}`;

const ruleWorkKind = attr.itemKind({
  type: 'rule-work',
  key: workKeyOf,
  attributes: {
    subject: attr.oneOf(SUBJECTS),
    subject_id: attr.string,
    stamp: attr.string,
    at: attr.string,
    /** A user's cells left since it was last followed: `<department or ''>|<role>.<0|1>`; for `users`, each user's one. */
    from_cells: attr.optional(attr.stringList),
    /** `users`: the users a bulk move changed at once. */
    user_ids: attr.optional(attr.stringList),
  },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

export const ruleWorkKey = ruleWorkKind.key;

export interface RuleWork {
  subject: RuleWorkSubject;
  id: string;
  stamp: string;
  at: string;
  fromCells: string[];
  userIds: string[];
}

/** A cell of department × role × activation, as rule work records it. */
export const ruleCellCode = (user: { department_id: string | null; account_role: string; activated: boolean }) =>
  `${user.department_id ?? ''}|${user.account_role}.${user.activated ? 1 : 0}`;

function workFields(subject: RuleWorkSubject, id: string, now: string) {
  return {
    type: ruleWorkKind.type,
    subject,
    subject_id: id,
    stamp: newId(),
    at: now,
    gsi1pk: workPartition(subject, id),
    gsi1sk: `${now}#${subject}#${id}`,
  };
}

/**
 * A user's cell changed (`from`: the cell it left), or the user is in no group
 * (null: it was created, or its deletion left every group): then the cells
 * recorded before do not count, and the user joins every rule it matches.
 */
export function userRuleWorkWrite(userId: string, from: string | null, now: string): Write {
  const changes = new Update().setAll(workFields('user', userId, now));
  if (from === null) changes.setAll({ from_cells: [] });
  else changes.append('from_cells', [from]);
  return update(ruleWorkKey('user', userId), changes);
}

/** The cells of many users changed at once (a part of a bulk move): one item for them all. */
export function usersRuleWorkWrite(users: Array<{ id: string; from: string }>, now: string): Write {
  const id = newId();
  return put(
    ruleWorkKind.item(ruleWorkKey('users', id), {
      ...workFields('users', id, now),
      user_ids: users.map((user) => user.id),
      from_cells: users.map((user) => user.from),
    }),
  );
}

/** A group's rule is to be applied. */
export const groupRuleWorkWrite = (groupId: string, now: string): Write =>
  put(ruleWorkKind.item(ruleWorkKey('group', groupId), workFields('group', groupId, now)));

function toWork(item: Item): RuleWork {
  const { subject, subject_id, stamp, at, from_cells, user_ids } = ruleWorkKind.read(item);
  return { subject, id: subject_id, stamp, at, fromCells: from_cells ?? [], userIds: user_ids ?? [] };
}

/** The work a stream record's new image announces: none for a removal (no image) or an item of another kind. */
export function announcedRuleWork(image: Record<string, { S?: string }> | undefined): { subject: RuleWorkSubject; id: string } | undefined {
  if (image?.type?.S !== ruleWorkKind.type) return undefined;
  const subject = SUBJECTS.find((known) => known === image.subject?.S);
  const id = image.subject_id?.S;
  return subject && id ? { subject, id } : undefined;
}

export async function readRuleWork(subject: RuleWorkSubject, id: string): Promise<RuleWork | undefined> {
  const item = await getItem(ruleWorkKey(subject, id));
  return item ? toWork(item) : undefined;
}

/** Work written up to `until` (everything without), oldest first; at most `limit`: the oldest of every shard, merged. */
export async function pendingRuleWork(options: { until?: string; limit: number }): Promise<RuleWork[]> {
  const sortKeyBetween = options.until ? { to: options.until } : undefined;
  const shards = await Promise.all(
    Array.from({ length: RULE_WORK_SHARDS }, async (_, shard) => {
      const items: Item[] = [];
      const query = { index: INDEXES.byName, partition: `${WORK_PARTITION_PREFIX}${shard}`, sortKeyBetween };
      for await (const item of queryStream(query, { pageSize: options.limit })) {
        items.push(item);
        if (items.length >= options.limit) break;
      }
      return items;
    }),
  );
  const age = (item: Item) => ruleWorkKind.attribute(item, 'gsi1sk');
  const oldest = shards.flat().sort((a, b) => compareCodePoints(age(a), age(b)));
  return oldest.slice(0, options.limit).map(toWork);
}

/** Done: deleted unless written again since it was read (a later change is then followed too). */
export const finishRuleWorkWrite = (work: RuleWork): Write =>
  remove(ruleWorkKey(work.subject, work.id), new Condition().whenEquals('stamp', work.stamp), { explain: () => new WorkRewritten() });

/** The work was written again while it was done: it stays, to be done again. */
export class WorkRewritten extends Error {}

// --- the rule index -----------------------------------------------------------

/** Where a rule is listed: each department it names, or `*` (every department, and none). */
export const ruleScopes = (departments: string[] | undefined): string[] => departments ?? ['*'];

const ruleIndexKind = attr.itemKind({
  type: 'rule-index',
  key: (scope: string, groupId: string): Key => ({ pk: `RULEINDEX#${scope}`, sk: `GROUP#${groupId}` }),
  attributes: { group_id: attr.string, rule: attr.string, rule_version: attr.string },
  indexAttributes: {},
});

export const ruleIndexPut = (scope: string, groupId: string, rule: string, ruleVersion: string): Write =>
  put(ruleIndexKind.item(ruleIndexKind.key(scope, groupId), { group_id: groupId, rule, rule_version: ruleVersion }));

/** Removes an entry; with `ruleVersion`, only that version's (a stale entry, found by the worker). */
export const ruleIndexDelete = (scope: string, groupId: string, ruleVersion?: string): Write =>
  remove(
    ruleIndexKind.key(scope, groupId),
    ruleVersion === undefined ? undefined : new Condition().whenEquals('rule_version', ruleVersion),
  );

export interface IndexedRule {
  scope: string;
  groupId: string;
  rule: string;
  ruleVersion: string;
}

/** The rules listed under these scopes (one consistent Query each); a group listed under several is there once per scope. */
export async function rulesListedUnder(scopes: string[]): Promise<IndexedRule[]> {
  const found: IndexedRule[] = [];
  await Promise.all(
    [...new Set(scopes)].map(async (scope) => {
      for await (const item of partitionItems(`RULEINDEX#${scope}`)) {
        const { group_id, rule, rule_version } = ruleIndexKind.read(item);
        found.push({ scope, groupId: group_id, rule, ruleVersion: rule_version });
      }
    }),
  );
  return found;
}
