/**
 * Group name claims: `GROUPNAME#<case-folded name>` / `GROUPNAME`, written
 * and moved in the same transaction as the group, which makes group names
 * unique case-insensitively.
 */
import { Condition } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import type { Key } from '../db/table';
import { put, remove, type Explain, type Write } from '../db/transact';
import { foldCase } from '../text';

const groupNameKind = attr.itemKind({
  type: 'group-name',
  key: (name: string): Key => ({ pk: `GROUPNAME#${foldCase(name)}`, sk: 'GROUPNAME' }),
  attributes: { group_id: attr.string, name: attr.string },
  indexAttributes: {},
});

export const groupNameKey = groupNameKind.key;

export const groupNameItem = (groupId: string, name: string) => groupNameKind.item(groupNameKey(name), { group_id: groupId, name });

/** Claims a name for a group; `explain` answers a name already held. */
export const claimGroupNameWrite = (groupId: string, name: string, explain: Explain): Write =>
  put(groupNameItem(groupId, name), new Condition().whenAbsent(), { explain });

/** Gives up a group's name; conditional on the claim being this group's. */
export const releaseGroupNameWrite = (groupId: string, name: string, explain: Explain): Write =>
  remove(groupNameKey(name), new Condition().whenEquals('group_id', groupId), { explain });

/** The claim of a name (case-insensitively), if any. */
export async function findGroupNameClaim(name: string): Promise<{ group_id: string; name: string } | undefined> {
  const item = await getItem(groupNameKey(name));
  return item ? groupNameKind.read(item) : undefined;
}
