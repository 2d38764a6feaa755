/**
 * Key layout of the single table. Every item kind and every index entry is
 * described here; nothing else builds a key.
 *
 * | item              | pk               | sk          | gsi1 (byName)                 | gsi2 (byDepartment)     | gsi3 (byRole)                      |
 * |-------------------|------------------|-------------|-------------------------------|-------------------------|------------------------------------|
 * | user              | USER#<id>        | USER        | USERS#IN|OUT, name key        | DEPT#<dept>, name key   | ROLE#<role>#IN|OUT, name key       |
 * | e-mail claim      | EMAIL#<lower>    | EMAIL       |                               |                         |                                    |
 * | department        | DEPT#<id>        | DEPT        | DEPTS, name key               |                         |                                    |
 * | stats shard       | STATS            | SHARD#<nn>  |                               |                         |                                    |
 * | audit entry       | AUDIT#<id>       | AUDIT       | AUDIT, <at>#<id>              |                         |                                    |
 * | bulk move header  | BULK#<op>        | BULK        | BULK, <lease_until>#<op>      |                         |                                    |
 * | bulk move part    | BULK#<op>        | PART#<nnnn> |                               |                         |                                    |
 * | idempotency record| IDEMPOTENCY#<h>  | IDEMPOTENCY |                               |                         |                                    |
 * | report job        | REPORT#<id>      | REPORT      | REPORTS#PENDING|RUNNING, <due>#<id> (while unfinished) |                |                    |
 * | group             | GROUP#<id>       | GROUP       | GROUPS, name key (published)  |                         |                                    |
 * |                   |                  |             | GROUPS#PENDING, <lease>#<id>  |                         |                                    |
 * | group name claim  | GROUPNAME#<lower> | GROUPNAME   |                               |                         |                                    |
 * | group cleanup     | GROUP#<id>       | CLEANUP#<g> | GROUPS#CLEANUP, <at>#<id>#<g> |                         |                                    |
 * | member (by group) | MEMBERS#<id>#<g> | USER#<uid>  |                               |                         |                                    |
 * | member (by user)  | USER#<uid>       | GROUP#<id>#<g> |                               |                         |                                    |
 *
 * "name key" is `nameSortKey(last_name or name, id)`: case-folded name, then id.
 * IN/OUT splits users by whether they belong to a department, so E1 (users
 * in any department) is one partition and the all-users list merges two.
 *
 * Groups (see groups.ts): `<g>` is the group's generation, a random id made
 * at each creation, so memberships of a deleted group never mix with those
 * of a later group with the same id. A membership is two items written and
 * deleted together: one in the group's member partition (G1 reads it with a
 * consistent Query) and one in the user's partition (user deletion reads it
 * with a consistent Query). Neither has index entries.
 */
import { nameSortKey } from '../text';

export type Key = { pk: string; sk: string };

export const userKey = (id: string): Key => ({ pk: `USER#${id}`, sk: 'USER' });
export const emailKey = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
export const departmentKey = (id: string): Key => ({ pk: `DEPT#${id}`, sk: 'DEPT' });
export const auditKey = (id: string): Key => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' });
export const bulkPartition = (operationId: string) => `BULK#${operationId}`;
export const bulkHeaderKey = (operationId: string): Key => ({ pk: bulkPartition(operationId), sk: 'BULK' });
export const bulkPartKey = (operationId: string, part: number): Key => ({
  pk: bulkPartition(operationId),
  sk: `PART#${String(part).padStart(4, '0')}`,
});

export const STATS_PARTITION = 'STATS';
/** Counters are spread over shards so that parallel transactions rarely touch the same item. */
export const STATS_SHARDS = 16;
export const statsShardKey = (shard: number): Key => ({ pk: STATS_PARTITION, sk: `SHARD#${String(shard).padStart(2, '0')}` });

export type Membership = 'IN' | 'OUT';
export const membershipOf = (departmentId: string | null): Membership => (departmentId ? 'IN' : 'OUT');

export const usersPartition = (membership: Membership) => `USERS#${membership}`;
export const departmentUsersPartition = (departmentId: string) => `DEPT#${departmentId}`;
export const rolePartition = (role: string, membership: Membership) => `ROLE#${role}#${membership}`;
export const DEPARTMENTS_PARTITION = 'DEPTS';
export const AUDIT_PARTITION = 'AUDIT';
export const reportKey = (id: string): Key => ({ pk: `REPORT#${id}`, sk: 'REPORT' });
/** One partition per key hash: idempotency records never share a hot partition. */
export const idempotencyKey = (hash: string): Key => ({ pk: `IDEMPOTENCY#${hash}`, sk: 'IDEMPOTENCY' });
/** Unfinished report jobs by state, sorted by when they need attention (see reports/jobs.ts). */
export const reportQueuePartition = (state: 'pending' | 'running') => `REPORTS#${state.toUpperCase()}`;
/** Open bulk moves, sorted by the time their driver is presumed dead (see bulk-move.ts). */
export const BULK_MOVES_PARTITION = 'BULK';

/** Index attributes of a user item; recomputed on every write that changes name, role or department. */
export function userIndexAttributes(user: { id: string; last_name: string; account_role: string; department_id: string | null }) {
  const sortKey = nameSortKey(user.last_name, user.id);
  const membership = membershipOf(user.department_id);
  return {
    gsi1pk: usersPartition(membership),
    gsi1sk: sortKey,
    gsi3pk: rolePartition(user.account_role, membership),
    gsi3sk: sortKey,
    ...(user.department_id ? { gsi2pk: departmentUsersPartition(user.department_id), gsi2sk: sortKey } : {}),
  };
}

export function departmentIndexAttributes(department: { id: string; name: string }) {
  return { gsi1pk: DEPARTMENTS_PARTITION, gsi1sk: nameSortKey(department.name, department.id) };
}

/** FNV-1a: a cheap, stable spread of ids over the stats shards. */
export function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % STATS_SHARDS;
}

// Groups ---------------------------------------------------------------------

export type GroupState = 'pending' | 'active';
export const groupKey = (id: string): Key => ({ pk: `GROUP#${id}`, sk: 'GROUP' });
export const groupNameKey = (name: string): Key => ({ pk: `GROUPNAME#${name.toLowerCase()}`, sk: 'GROUPNAME' });
export const groupCleanupKey = (id: string, generation: string): Key => ({ pk: `GROUP#${id}`, sk: `CLEANUP#${generation}` });
export const groupMembersPartition = (id: string, generation: string) => `MEMBERS#${id}#${generation}`;
export const groupMemberKey = (id: string, generation: string, userId: string): Key => ({
  pk: groupMembersPartition(id, generation),
  sk: `USER#${userId}`,
});
export const USER_GROUPS_PREFIX = 'GROUP#';
export const userGroupKey = (userId: string, id: string, generation: string): Key => ({
  pk: userKey(userId).pk,
  sk: `${USER_GROUPS_PREFIX}${id}#${generation}`,
});
export const GROUPS_PARTITION = 'GROUPS';
/** Groups being created in steps (G3 with many users), sorted by the time their creator is presumed dead. */
export const PENDING_GROUPS_PARTITION = 'GROUPS#PENDING';
/** Deleted groups whose memberships are still to be removed, oldest first. */
export const GROUP_CLEANUPS_PARTITION = 'GROUPS#CLEANUP';

/** Index attributes of a group item: published groups are listed by name, pending ones by lease. */
export function groupIndexAttributes(group: { id: string; name: string; state: GroupState; lease_until?: string }) {
  if (group.state === 'pending') return { gsi1pk: PENDING_GROUPS_PARTITION, gsi1sk: `${group.lease_until}#${group.id}` };
  return { gsi1pk: GROUPS_PARTITION, gsi1sk: nameSortKey(group.name, group.id) };
}
