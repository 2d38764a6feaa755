/**
 * The floor an operation's handler is compared against: the same DynamoDB calls, in the same order and concurrency,
 * sent directly with the bench's own client (docs/performance.md "Overhead and bulk"). Keys, items and transactions
 * are the service's own builders'; only the sequence of calls is written here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { recordChange, type ChangeContext } from '../../lib/audit/context';
import { INDEXES } from '../../lib/db/table';
import type { Write } from '../../lib/db/transact';
import { BULK_LEASE_MS } from '../../lib/departments/bulk-move/driver';
import {
  applyWrites,
  holdWrites,
  packParts,
  reservationOf,
  reservationWrites,
  singleTransaction,
  type BulkMove,
} from '../../lib/departments/bulk-move/writes';
import { groupAudit } from '../../lib/groups/groups';
import { groupCountWrite, userCheckWrite } from '../../lib/groups/members';
import { headerDelete, headerPut } from '../../lib/store/bulk-moves';
import { departmentKey, toDepartment } from '../../lib/store/departments';
import { groupKey } from '../../lib/store/groups';
import { membershipPuts, membersPartition } from '../../lib/store/memberships';
import { STATS_PARTITION } from '../../lib/store/stats';
import { toStoredUser, userKey, userLists } from '../../lib/store/users';
import { userChangeWrites } from '../../lib/users/changes';
import { userRepresentation } from '../../lib/users/user';
import { type Doc } from '../../test/support/measure/dataset';
import { batchGet, getItem, queryAll } from './tables';

/** Who writes the floor's audit entries: the bench's caller, as the handlers see it (JWT `sub`). */
const ctx = (operationId: string): ChangeContext => ({ actor: 'bench', operationId, requestId: randomUUID() });
const never = () => new Error('the floor expects no failed condition');

const transact = (client: Doc, writes: Write[]) =>
  client.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.item), ClientRequestToken: randomUUID() }));

/** BatchGetItem of users, 100 a request, up to 16 at once. */
export const readUsers = (client: Doc, table: string, ids: string[]) =>
  batchGet(client, table, ids.map(userKey), { consistent: true, concurrency: 16 });

/** The user ids of a group's member partition (consistent, ids only). */
export async function memberIds(client: Doc, table: string, group: { id: string; generation: string }): Promise<string[]> {
  const input = { TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': membersPartition(group) } };
  const members = await queryAll(client, { ...input, ConsistentRead: true, ProjectionExpression: 'user_id' });
  return members.map((member) => String(member.user_id));
}

/** E2: read the user, one transaction moving it into `departmentId`. */
export async function rawE2(client: Doc, table: string, departmentId: string, userId: string): Promise<void> {
  const before = toStoredUser((await getItem(client, table, userKey(userId)))!);
  if (before.department_id === departmentId) return;
  const at = new Date().toISOString();
  const after = { ...userRepresentation(before), department_id: departmentId, updated_at: at };
  const changes = { added_user_ids: [userId], ...(before.department_id ? { moved_from: { [userId]: before.department_id } } : {}) };
  await transact(client, [
    ...userChangeWrites({ before, after }, at),
    recordChange(ctx('E2'), { resourceType: 'department', resourceId: departmentId, changes }),
  ]);
}

/** E3: the target and the users read in parallel, then one transaction, or the bulk protocol when it does not fit. */
export async function rawE3(client: Doc, table: string, departmentId: string, userIds: string[]): Promise<void> {
  const [target, found] = await Promise.all([getItem(client, table, departmentKey(departmentId)), readUsers(client, table, userIds)]);
  const byId = new Map(found.map((item) => [String(item.id), toStoredUser(item)]));
  const users = userIds.map((id) => byId.get(id)!).filter((user) => user.department_id !== departmentId);
  if (users.length === 0) return;
  const movedFrom = Object.fromEntries(users.filter((u) => u.department_id).map((u) => [u.id, u.department_id]));
  const changes = { added_user_ids: users.map((u) => u.id), ...(Object.keys(movedFrom).length > 0 ? { moved_from: movedFrom } : {}) };
  const move: BulkMove = {
    ctx: ctx('E3'),
    target: departmentId,
    targetAsRead: toDepartment(target!),
    users,
    audit: { resourceType: 'department', resourceId: departmentId, changes },
  };
  const at = new Date().toISOString();
  const reserved = reservationOf(move);
  const single = singleTransaction(move, reserved, at);
  if (single) {
    await transact(client, single);
    return;
  }
  const op = randomBytes(12).toString('base64url');
  const parts = packParts(users, departmentId);
  const leaseUntil = new Date(Date.parse(at) + BULK_LEASE_MS).toISOString();
  await transact(client, [
    headerPut({ op, operation: 'E3', target: departmentId, at, leaseUntil, parts: parts.length, reserved }),
    ...reservationWrites(move, reserved, at),
  ]);
  for (const [index, part] of parts.entries()) {
    await transact(client, holdWrites(op, index, part, index === parts.length - 1 ? recordChange(move.ctx, move.audit) : undefined));
  }
  for (const [index, part] of parts.entries()) await transact(client, applyWrites({ op, target: departmentId, at }, index, part));
  await transact(client, [headerDelete(op, 'applying', never)]);
}

/** E1, a page of `count`, default sort: the service counters and, at once, one Query of USERS#IN of byName (count + 1). */
export async function rawE1(client: Doc, table: string, count: number): Promise<void> {
  const [members] = userLists.all({ membership: 'IN' }, 'name');
  await Promise.all([
    client.send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': STATS_PARTITION } }),
    ),
    client.send(
      new QueryCommand({
        ...{ TableName: table, IndexName: members.index.name, KeyConditionExpression: '#ipk = :ipk', Limit: count + 1 },
        ...{ ExpressionAttributeNames: { '#ipk': INDEXES.byName.partitionKey }, ExpressionAttributeValues: { ':ipk': members.partition } },
      }),
    ),
  ]);
}

/** G1: the group, its member partition, the users. */
export async function rawG1(client: Doc, table: string, groupId: string): Promise<void> {
  const group = (await getItem(client, table, groupKey(groupId)))!;
  await readUsers(client, table, await memberIds(client, table, { id: groupId, generation: String(group.generation) }));
}

/** G4: the group and the user in parallel, then one transaction; the member put's condition answers "already a member". */
export async function rawG4(client: Doc, table: string, groupId: string, userId: string): Promise<void> {
  const [stored] = await Promise.all([getItem(client, table, groupKey(groupId)), getItem(client, table, userKey(userId))]);
  const group = { id: groupId, generation: String(stored!.generation) };
  const at = new Date().toISOString();
  await transact(client, [
    ...membershipPuts(group, userId, at, never),
    groupCountWrite(group, 1, at, { published: true }),
    userCheckWrite(userId, at),
    groupAudit(ctx('G4'), groupId, { added_user_ids: [userId] }, at),
  ]);
}
