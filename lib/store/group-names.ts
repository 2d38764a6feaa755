/**
 * Group name claims: `GROUPNAME#<case-folded name>` / `GROUPNAME`, written
 * and moved in the same transaction as the group, which makes group names
 * unique case-insensitively.
 */
import { Condition } from '../db/expression';
import { getItem } from '../db/items';
import type { Item, Key } from '../db/table';
import { put, remove, type Explain, type Write } from '../db/transact';
import { foldCase } from '../text';

export const groupNameKey = (name: string): Key => ({ pk: `GROUPNAME#${foldCase(name)}`, sk: 'GROUPNAME' });

export const groupNameItem = (groupId: string, name: string): Item => ({
  ...groupNameKey(name),
  type: 'group-name',
  group_id: groupId,
  name,
});

/** Claims a name for a group; `explain` answers a name already held. */
export const claimGroupNameWrite = (groupId: string, name: string, explain: Explain): Write =>
  put(groupNameItem(groupId, name), new Condition().whenAbsent(), { explain });

/** Gives up a group's name; conditional on the claim being this group's. */
export const releaseGroupNameWrite = (groupId: string, name: string, explain: Explain): Write =>
  remove(groupNameKey(name), new Condition().whenEquals('group_id', groupId), { explain });

/** The claim of a name (case-insensitively), if any. */
export const findGroupNameClaim = (name: string): Promise<Item | undefined> => getItem(groupNameKey(name));
