/**
 * Reads the whole (per-test-file) table and lists every broken invariant:
 * department counters equal their members counted by attribute, every user
 * is in at most one existing department with index keys that say so, every
 * e-mail claim belongs to exactly its user, and the service counters equal
 * what they count. Scanning is fine here: this is a test's view, never a
 * request path.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { membershipOf, userIndexAttributes } from '../../lib/store/users';
import { openReservations, partHolds } from '../../lib/store/bulk-moves';
import { COUNTED_QUOTAS } from '../../lib/schemas/enums';
import { NO_USAGE, sumUsage, usageOf, type Usage } from '../../lib/departments/quotas';
import { toDepartment } from '../../lib/store/departments';
import { DEPARTMENTS_COUNTER, userCounter } from '../../lib/store/stats';
import { foldCase } from '../../lib/text';
import { expectedGroupCounters, groupViolations } from './group-invariants';

type Item = Record<string, any>;

export async function scanTable(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export async function invariantViolations(): Promise<string[]> {
  const items = await scanTable();
  const byType = (type: string) => items.filter((item) => item.type === type);
  const users = byType('user');
  const departments = new Map(byType('department').map((d) => [d.id as string, d]));
  const violations: string[] = [];

  const reservations = openReservations(items);
  const members = new Map<string, Usage[]>();
  for (const user of users) {
    if (user.department_id !== null) {
      if (!departments.has(user.department_id)) violations.push(`user ${user.id} is in missing department ${user.department_id}`);
      members.set(user.department_id, [...(members.get(user.department_id) ?? []), usageOf(user as never)]);
    }
    const expected = userIndexAttributes(user as never);
    for (const [name, value] of Object.entries(expected)) {
      if (user[name] !== value) violations.push(`user ${user.id} has ${name}=${user[name]}, expected ${value}`);
    }
    if (user.bulk_lock && !items.some((item) => partHolds(item, user.bulk_lock, user.id)))
      violations.push(`user ${user.id} is held by bulk move ${user.bulk_lock}, which does not hold it`);
    if (!user.department_id && (user.gsi2pk !== undefined || user.gsi2sk !== undefined))
      violations.push(`user ${user.id} keeps a department index entry`);
  }
  for (const [id, department] of departments) {
    // Open bulk moves hold their not-yet-applied additions as reservations (bulk-move.ts).
    const counted = sumUsage([...(members.get(id) ?? []), reservations.get(id) ?? NO_USAGE]);
    const stored = toDepartment(department).usage;
    for (const quota of COUNTED_QUOTAS) {
      if (stored[quota] !== counted[quota]) violations.push(`department ${id} counts ${quota}=${stored[quota]} but has ${counted[quota]}`);
    }
  }

  const claims = byType('email');
  const usersById = new Map(users.map((u) => [u.id as string, u]));
  for (const claim of claims) {
    const owner = usersById.get(claim.user_id);
    if (!owner || `EMAIL#${foldCase(owner.email)}` !== claim.pk)
      violations.push(`e-mail claim ${claim.pk} does not match user ${claim.user_id}`);
  }
  if (claims.length !== users.length) violations.push(`${claims.length} e-mail claims for ${users.length} users`);

  const counters: Record<string, number> = {};
  for (const shard of byType('stats').concat(items.filter((i) => i.pk === 'STATS'))) {
    for (const [name, value] of Object.entries(shard)) if (typeof value === 'number') counters[name] = (counters[name] ?? 0) + value;
  }
  const expectedCounters: Record<string, number> = { [DEPARTMENTS_COUNTER]: departments.size, ...expectedGroupCounters(items) };
  for (const user of users) {
    const name = userCounter(user.account_role, membershipOf(user.department_id));
    expectedCounters[name] = (expectedCounters[name] ?? 0) + 1;
  }
  for (const name of new Set([...Object.keys(counters), ...Object.keys(expectedCounters)])) {
    if ((counters[name] ?? 0) !== (expectedCounters[name] ?? 0)) {
      violations.push(`service counter ${name}=${counters[name] ?? 0}, expected ${expectedCounters[name] ?? 0}`);
    }
  }
  violations.push(...groupViolations(items));
  return violations;
}
