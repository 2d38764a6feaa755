/**
 * The group part of the invariant checker (invariants.ts), over the same
 * table scan: every group is published with its name claimed and index keys
 * right, its `user_count` equals its membership items, both items of every
 * membership exist, no membership belongs to a missing user, and none to a
 * missing group unless a cleanup marker says it is being removed. A large
 * change being applied (lib/groups/bulk-change.ts) is counted ahead.
 */
import { claimKey } from '../../lib/store/claims';
import { groupNameKey } from '../../lib/store/group-names';
import { pendingMemberChanges } from '../../lib/store/group-changes';
import { listingAttributes } from '../../lib/store/groups';
import { cleanupMarkerKey, groupMemberKey, userGroupKey } from '../../lib/store/memberships';
import { GROUPS_COUNTER } from '../../lib/store/stats';

type Item = Record<string, any>;

export function expectedGroupCounters(items: Item[]): Record<string, number> {
  return { [GROUPS_COUNTER]: items.filter((item) => item.type === 'group' && item.state === 'active').length };
}

export function groupViolations(items: Item[]): string[] {
  const violations: string[] = [];
  const byType = (type: string) => items.filter((item) => item.type === type);
  const keyOf = (item: Item) => `${item.pk}|${item.sk}`;
  const present = new Set(items.map(keyOf));
  const userIds = new Set(byType('user').map((user) => user.id as string));
  const groups = new Map(byType('group').map((group) => [group.id as string, group]));
  const markers = new Set(
    byType('group-cleanup').map((marker) => keyOf(cleanupMarkerKey({ id: marker.group_id, generation: marker.generation }))),
  );

  for (const group of groups.values()) {
    if (group.state !== 'active') violations.push(`group ${group.id} is ${group.state}`);
    const expected = listingAttributes(group as never);
    for (const [name, value] of Object.entries(expected)) {
      if (group[name] !== value) violations.push(`group ${group.id} has ${name}=${group[name]}, expected ${value}`);
    }
    if (!items.some((item) => item.pk === groupNameKey(group.name).pk && item.group_id === group.id))
      violations.push(`group ${group.id} does not hold the claim of its name "${group.name}"`);
    if (markers.has(keyOf(cleanupMarkerKey({ id: group.id, generation: group.generation }))))
      violations.push(`group ${group.id} has a cleanup marker for its own generation`);
  }
  for (const claim of byType('group-name')) {
    const group = groups.get(claim.group_id);
    if (!group || claim.pk !== groupNameKey(group.name).pk)
      violations.push(`name claim ${claim.pk} does not match group ${claim.group_id}`);
  }
  // External ids: each group that has one holds its claim, and each claim is its group's.
  const externalClaims = byType('group_external_id');
  for (const claim of externalClaims) {
    const group = groups.get(claim.user_id);
    if (!group || claim.pk !== claimKey('group_external_id', String(group.external_id)).pk)
      violations.push(`external id claim ${claim.pk} does not match group ${claim.user_id}`);
  }
  const withExternal = [...groups.values()].filter((group) => typeof group.external_id === 'string').length;
  if (externalClaims.length !== withExternal)
    violations.push(`${externalClaims.length} group external id claims for ${withExternal} groups that have one`);

  const counted = new Map<string, number>();
  for (const member of byType('group-member')) {
    const where = `membership of user ${member.user_id} in group ${member.group_id} (${member.generation})`;
    if (member.pk !== groupMemberKey({ id: member.group_id, generation: member.generation }, member.user_id).pk)
      violations.push(`${where} has key ${member.pk}`);
    const group = groups.get(member.group_id);
    if (group && group.generation === member.generation) counted.set(group.id, (counted.get(group.id) ?? 0) + 1);
    else if (markers.has(keyOf(cleanupMarkerKey({ id: member.group_id, generation: member.generation }))))
      continue; // being swept: the user's side may be gone already
    else violations.push(`${where}: the group does not exist and no cleanup is pending`);
    if (!present.has(keyOf(userGroupKey(member.user_id, { id: member.group_id, generation: member.generation }))))
      violations.push(`${where} has no item on the user's side`);
    if (!userIds.has(member.user_id)) violations.push(`${where}: the user does not exist`);
  }
  for (const side of byType('user-group')) {
    if (!present.has(keyOf(groupMemberKey({ id: side.group_id, generation: side.generation }, side.user_id))))
      violations.push(`user ${side.user_id}'s membership of group ${side.group_id} (${side.generation}) has no item on the group's side`);
  }
  // A large change being applied has moved user_count ahead by what its parts have yet to add and remove.
  const pending = pendingMemberChanges(items);
  const openChanges = new Set(byType('group_change').map((change) => change.id as string));
  for (const group of groups.values()) {
    const members = counted.get(group.id) ?? 0;
    const left = pending.get(`${group.id}#${group.generation}`) ?? { adds: [], removes: [] };
    if (group.user_count !== members + left.adds.length - left.removes.length)
      violations.push(
        `group ${group.id} counts user_count=${group.user_count} but has ${members}` +
          (left.adds.length + left.removes.length > 0 ? ` with ${left.adds.length} to add and ${left.removes.length} to remove` : ''),
      );
    if (group.change_id !== undefined && !openChanges.has(group.change_id))
      violations.push(`group ${group.id} is held by change ${group.change_id}, which is not open`);
  }
  return violations;
}
