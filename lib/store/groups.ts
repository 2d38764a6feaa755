/**
 * Group items: `GROUP#<id>` / `GROUP`. A group holds `user_count`, moved in
 * the same transaction as every membership, and `generation`, a random id
 * made at creation under which its memberships live (store/memberships.ts),
 * so that a new group with the id of a deleted one never sees the old
 * group's memberships while they are being removed.
 *
 * A published group (`state` active) is listed in index partition GROUPS by
 * name (byName), by creation (byTime) and by `user_count` then id
 * (groupsByCount, sorted on the counter itself, so the ADD of every
 * membership change moves the entry).
 *
 * While a change of more members than one transaction holds is applied
 * (lib/groups/bulk-change.ts, a G3 of many users included), the group holds
 * its id as `change_id` and shows `bulk_status: applying`: every other change
 * of its members or its deletion waits (409) until it is done; only a user's
 * deletion may still take the user out.
 */
import { batchGetItems } from '../db/batch';
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import { startsWithOneOf, type Filter, type IndexQuery } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { put, remove, update, type Explain, type Write } from '../db/transact';
import { RULE_STATUSES } from '../schemas/enums';
import type { GroupSummary } from '../schemas/responses';
import { foldCase, nameSortKey } from '../text';
import { creationSortKey } from './creation-order';

/** One state: a group item is there from the commit that creates it (a large G3 included) to its deletion. */
const GROUP_STATES = ['active'] as const;
export type GroupState = (typeof GROUP_STATES)[number];
export type Group = GroupSummary;

export interface StoredGroup extends Group {
  version: number;
  generation: string;
  state: GroupState;
  /** A rule group's current rule version (absent: a manual group). */
  rule_version?: string;
}

/** A rule as set on a group: its text and the version made for it. */
export interface RuleSetting {
  text: string;
  version: string;
}

/** A group generation: what its memberships are filed under. */
export interface GroupRef {
  id: string;
  generation: string;
}

const groupKind = attr.itemKind({
  type: 'group',
  key: (id: string): Key => ({ pk: `GROUP#${id}`, sk: 'GROUP' }),
  attributes: {
    id: attr.string,
    name: attr.string,
    description: attr.orElse(attr.string, ''),
    external_id: attr.nullable(attr.string),
    user_count: attr.orElse(attr.number, 0),
    created_at: attr.string,
    updated_at: attr.string,
    version: attr.number,
    generation: attr.string,
    state: attr.oneOf(GROUP_STATES),
    /** The large change of its members being applied, if any. */
    change_id: attr.optional(attr.string),
    /** A rule group's rule (lib/groups/rule.ts), its state, and an id made anew at each rule change (the conditions of rule joins and leaves). */
    rule: attr.optional(attr.string),
    rule_status: attr.optional(attr.oneOf(RULE_STATUSES)),
    rule_version: attr.optional(attr.string),
  },
  indexAttributes: { name_folded: attr.string, gsi1pk: attr.string, gsi1sk: attr.string, gsi4sk: attr.optional(attr.string) },
});

export type GroupItem = attr.ItemOf<typeof groupKind>;

export const groupKey = groupKind.key;
const GROUPS_PARTITION = 'GROUPS';

/** The attributes that follow from a group's name: it is listed by name and by creation. */
export function listingAttributes(group: { id: string; name: string; created_at: string }) {
  return {
    name: group.name,
    name_folded: foldCase(group.name),
    gsi1pk: GROUPS_PARTITION,
    gsi1sk: nameSortKey(group.name, group.id),
    gsi4sk: creationSortKey(group.created_at, group.id),
  };
}

export interface NewGroupFields {
  id: string;
  name: string;
  description: string;
  external_id: string | null;
}

/** A new group item; with `change_id`, created by the commit of a large change that then writes its members. */
export function newGroupItem(
  fields: NewGroupFields,
  generation: string,
  now: string,
  extra: { user_count: number; version: number; change_id?: string; rule?: RuleSetting },
): GroupItem {
  const { rule, ...rest } = extra;
  return groupKind.item(groupKey(fields.id), {
    id: fields.id,
    state: 'active',
    ...listingAttributes({ ...fields, created_at: now }),
    description: fields.description,
    external_id: fields.external_id,
    generation,
    created_at: now,
    updated_at: now,
    ...rest,
    ...(rule ? { rule: rule.text, rule_status: 'applying' as const, rule_version: rule.version } : {}),
  });
}

export function toGroup(item: Item): StoredGroup {
  const { change_id, rule, rule_status, rule_version, ...group } = groupKind.read(item);
  return {
    ...group,
    rule: rule ?? null,
    rule_status: rule_status ?? null,
    bulk_status: change_id === undefined ? null : 'applying',
    ...(rule_version ? { rule_version } : {}),
  };
}

/** Whether the group keeps its members by a rule (hand-made member changes are refused). */
export const isRuleManaged = (item: Item | undefined): boolean => typeof item?.rule === 'string';

/** Whether a large change of the group's members is being applied (store/group-changes.ts). */
export const isChanging = (item: Item | undefined): boolean => typeof item?.change_id === 'string';

/** A group item that is there (every group item is published from the commit that creates it). */
export const isPublished = (item: Item | undefined): item is Item => item?.state === 'active';

export const findGroupItem = (id: string): Promise<Item | undefined> => getItem(groupKey(id));

/** Group items by id (strongly consistent); absent groups are left out. */
export async function findGroupItems(ids: string[]): Promise<Map<string, Item>> {
  const found = await batchGetItems(ids.map(groupKey), { consistent: true });
  return new Map(found.map((item) => [groupKind.attribute(item, 'id'), item]));
}

// --- writes ------------------------------------------------------------------

/** Puts a new group; `explain` answers an id already taken. */
export const createGroupWrite = (item: GroupItem, explain: Explain): Write => put(item, new Condition().whenAbsent(), { explain });

/**
 * Renames and/or re-describes a published group. Conditional on the name read
 * (so that the name claim released is the one it holds) and on the If-Match
 * version when given.
 */
export function updateGroupWrite(
  group: {
    id: string;
    nameBefore: string;
    name: string;
    description: string;
    external_id: string | null;
    /** The rule version read (absent: no rule), and the rule to set (null: none; undefined: unchanged). */
    ruleVersionBefore?: string;
    rule?: RuleSetting | null;
  },
  now: string,
  expectedVersion: number | undefined,
  explain: Explain,
): Write {
  const { name, name_folded, gsi1sk } = listingAttributes({ ...group, created_at: '' });
  const changes = new Update()
    .setAll({ name, name_folded, gsi1sk, description: group.description, external_id: group.external_id, updated_at: now })
    .add('version', 1)
    .whenExists()
    .whenEquals('state', 'active')
    .whenEquals('name_folded', foldCase(group.nameBefore));
  if (group.rule !== undefined) {
    // The rule read is the one replaced: the rule-group counter moves by what the change really does.
    if (group.ruleVersionBefore === undefined) changes.whenAbsent('rule_version');
    else changes.whenEquals('rule_version', group.ruleVersionBefore);
    if (group.rule === null) changes.remove('rule').remove('rule_status').remove('rule_version');
    else changes.setAll({ rule: group.rule.text, rule_status: 'applying', rule_version: group.rule.version });
  }
  if (expectedVersion !== undefined) changes.whenEquals('version', expectedVersion);
  return update(groupKey(group.id), changes, { explain, returnOld: true });
}

/**
 * Moves `user_count` (and the version) by `delta`. Additions need the group
 * published, of the generation read, and within `maxUsers` afterwards;
 * removals only need it to exist in that generation (a pending group of a
 * running G3 loses members when their users are deleted).
 */
export function countMembersWrite(
  group: GroupRef,
  delta: number,
  now: string,
  options: { published: boolean; maxUsers: number; ruleVersion?: string },
  explain: Explain,
): Write {
  const changes = new Update()
    .set('updated_at', now)
    .add('user_count', delta)
    .add('version', 1)
    .whenExists()
    .whenEquals('generation', group.generation);
  // A user's deletion (not `published`) may take its user out while a large change is applied; nothing else may.
  if (options.published) changes.whenEquals('state', 'active').whenAbsent('change_id');
  // By hand only on a group without a rule; by a rule only under the rule version its decision was made for.
  if (options.published && options.ruleVersion === undefined) changes.whenAbsent('rule');
  if (options.ruleVersion !== undefined) changes.whenEquals('rule_version', options.ruleVersion);
  if (delta > 0) changes.when(`${changes.name('user_count')} <= ${changes.value(options.maxUsers - delta)}`);
  return update(groupKey(group.id), changes, { explain, returnOld: true });
}

/**
 * One change of a published group at the version read (SCIM's PUT and
 * PATCH): its name and external id, its `user_count` moved by `delta` —
 * or, when it starts a new generation (every member goes, those written
 * into the new one stay), set to `users`. The commit of a large change moves
 * the count ahead of the memberships its parts then write, and holds the
 * group with `changeId` (lib/groups/bulk-change.ts). Never while another
 * large change holds it.
 */
export function changeGroupWrite(
  group: GroupRef & { version: number },
  change: {
    name?: string;
    external_id?: string | null;
    delta?: number;
    newGeneration?: { generation: string; users: number };
    /** The large change (lib/groups/bulk-change.ts) whose commit this is: the group holds it until the change is applied. */
    changeId?: string;
    /** The rule version a rule's change of members was decided for; without it, members change only on a group without a rule. */
    ruleVersion?: string;
  },
  now: string,
  maxUsers: number,
  explain: Explain,
): Write {
  const changes = new Update().set('updated_at', now).add('version', 1);
  if (change.changeId !== undefined) changes.set('change_id', change.changeId);
  if (change.name !== undefined) {
    const { name, name_folded, gsi1sk } = listingAttributes({ id: group.id, name: change.name, created_at: '' });
    changes.setAll({ name, name_folded, gsi1sk });
  }
  if (change.external_id !== undefined) changes.set('external_id', change.external_id);
  if (change.newGeneration) changes.setAll({ generation: change.newGeneration.generation, user_count: change.newGeneration.users });
  else if (change.delta) {
    changes.add('user_count', change.delta);
    if (change.delta > 0) changes.when(`${changes.name('user_count')} <= ${changes.value(maxUsers - change.delta)}`);
  }
  changes
    .whenEquals('state', 'active')
    .whenEquals('generation', group.generation)
    .whenEquals('version', group.version)
    .whenAbsent('change_id');
  if (change.ruleVersion !== undefined) changes.whenEquals('rule_version', change.ruleVersion);
  else if (change.newGeneration || change.delta || change.changeId !== undefined) changes.whenAbsent('rule');
  return update(groupKey(group.id), changes, { explain, returnOld: true });
}

/**
 * A rule group's status (`current` or `over_limit`), under the rule version
 * it was decided for and, when given, the version read (no member changed
 * since). The ETag moves with it.
 */
export function ruleStatusWrite(
  groupId: string,
  status: 'current' | 'over_limit',
  condition: { ruleVersion: string; version?: number },
  now: string,
  explain: Explain,
): Write {
  const changes = new Update()
    .set('rule_status', status)
    .set('updated_at', now)
    .add('version', 1)
    .whenEquals('rule_version', condition.ruleVersion);
  changes.whenEquals('state', 'active');
  if (condition.version !== undefined) changes.whenEquals('version', condition.version);
  return update(groupKey(groupId), changes, { explain });
}

/** The one item that counts rule groups, so that at most `max` exist (a condition, not a read). */
const RULE_GROUPS_KEY: Key = { pk: 'RULEGROUPS', sk: 'COUNT' };

/** Moves the number of rule groups; a rise past `max` fails with `explain`. */
export function countRuleGroupsWrite(delta: number, max: number, explain: Explain): Write {
  const changes = new Update().add('rule_groups', delta);
  if (delta > 0) {
    const n = changes.name('rule_groups');
    changes.when(`attribute_not_exists(${n}) OR ${n} <= ${changes.value(max - delta)}`);
  }
  return update(RULE_GROUPS_KEY, changes, { explain });
}

/** Corrects the count a change moved ahead, for a user that vanished before its part was applied. */
export const correctChangeCountWrite = (groupId: string, changeId: string, delta: number): Write =>
  update(groupKey(groupId), new Update().add('user_count', delta).whenEquals('change_id', changeId));

/** The end of a large change: the group is free again (`explain` answers a group freed already). */
export const finishGroupChangeWrite = (groupId: string, changeId: string, explain: Explain): Write =>
  update(groupKey(groupId), new Update().remove('change_id').whenEquals('change_id', changeId), { explain });

/** Deletes a published group of this generation (and version, when given). */
export function deleteGroupWrite(group: GroupRef & { rule_version?: string }, version: number | undefined, explain: Explain): Write {
  const condition = new Condition().whenEquals('state', 'active').whenEquals('generation', group.generation).whenAbsent('change_id');
  // The rule read decides whether the rule-group counter goes down with it.
  if (group.rule_version === undefined) condition.whenAbsent('rule');
  else condition.whenEquals('rule_version', group.rule_version);
  if (version !== undefined) condition.whenEquals('version', version);
  return remove(groupKey(group.id), condition, { explain, returnOld: true });
}

// --- lists -------------------------------------------------------------------

export const groupList = {
  /** Published groups, by name. */
  byName: (): IndexQuery => ({ index: INDEXES.byName, partition: GROUPS_PARTITION }),
  /** Published groups, by creation time then id. */
  byCreation: (): IndexQuery => ({ index: INDEXES.byTime, partition: GROUPS_PARTITION }),
  /** Published groups, by `user_count` then id. */
  byCount: (): IndexQuery => ({ index: INDEXES.groupsByCount, partition: GROUPS_PARTITION }),
  foldedName: (item: Item) => groupKind.attribute(item, 'name_folded'),
  /** Case-folded prefixes of the name. */
  namePrefixes: (prefixes: string[]): Filter => startsWithOneOf('name_folded', prefixes, 'np'),
} as const;
