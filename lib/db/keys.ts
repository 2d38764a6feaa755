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
 *
 * "name key" is `nameSortKey(last_name or name, id)`: case-folded name, then id.
 * IN/OUT splits users by whether they belong to a department, so E1 (users
 * in any department) is one partition and the all-users list merges two.
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
