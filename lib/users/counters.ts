/**
 * What user changes do to the counters, added up: each department's quota
 * usage and list counters, the service-wide cell counters, the login-day
 * counters of each membership, the last-name counters of each membership and
 * department. Every change of a user (single or
 * bulk) writes these in its own transaction, so that every total the lists
 * answer from counters is exact under concurrency (lib/lists/users/).
 */
import { foldCase } from '../text';
import type { Explain, Write } from '../db/transact';
import { addUsage, NO_USAGE, scaleUsage, usageOf } from '../departments/quotas';
import { addUsageWrite, type DepartmentDelta } from '../store/departments';
import { addLoginDays, dayAttribute } from '../store/login-counts';
import { addNameCount, type NameScope } from '../store/name-counts';
import { addCounters, shardOf } from '../store/stats';
import { cellCode, cellOf, loginMonth, membershipOf, scopePrefix, type Membership, type User } from '../store/users';

export interface CounterDeltas {
  /** Service-wide cell counters, per membership (`USERS#IN#admin.10`). */
  cells: Record<string, number>;
  departments: Map<string, DepartmentDelta>;
  /** `<membership>|<YYYY-MM>` → `dDD` → delta. */
  logins: Map<string, Record<string, number>>;
  /** `<scope prefix>|<folded last name>` → the scope, the name and the delta. */
  names: Map<string, { scope: NameScope; name: string; delta: number }>;
}

export const noDeltas = (): CounterDeltas => ({ cells: {}, departments: new Map(), logins: new Map(), names: new Map() });

const add = (record: Record<string, number>, key: string, delta: number) => (record[key] = (record[key] ?? 0) + delta);

function departmentDelta(deltas: CounterDeltas, departmentId: string): DepartmentDelta {
  let delta = deltas.departments.get(departmentId);
  if (!delta) deltas.departments.set(departmentId, (delta = { usage: NO_USAGE, cells: {}, logins: {} }));
  return delta;
}

/** The counter of a membership's users in one cell (the stats shards hold it). */
export const cellCounterName = (membership: Membership, user: Pick<User, 'account_role' | 'activated' | 'last_login'>) =>
  `${scopePrefix({ membership })}#${cellCode(cellOf(user))}`;

/** Adds what `user` counts for, times `sign` (+1: it is there now, -1: it was). */
export function addContribution(deltas: CounterDeltas, user: User, sign: 1 | -1): void {
  const membership = membershipOf(user.department_id);
  if (user.department_id) {
    const department = departmentDelta(deltas, user.department_id);
    department.usage = addUsage(department.usage, scaleUsage(usageOf(user), sign));
    add(department.cells, cellCode(cellOf(user)), sign);
    if (user.last_login) add(department.logins, loginMonth(user.last_login), sign);
  }
  add(deltas.cells, cellCounterName(membership, user), sign);
  if (user.last_login) {
    const key = `${membership}|${loginMonth(user.last_login)}`;
    const days = deltas.logins.get(key) ?? {};
    add(days, dayAttribute(user.last_login), sign);
    deltas.logins.set(key, days);
  }
  const name = foldCase(user.last_name);
  const scopes: NameScope[] = [{ membership }, ...(user.department_id ? [{ department: user.department_id }] : [])];
  for (const scope of scopes) {
    const key = `${scopePrefix(scope)}|${name}`;
    const entry = deltas.names.get(key) ?? { scope, name, delta: 0 };
    deltas.names.set(key, { ...entry, delta: entry.delta + sign });
  }
}

/** Whether a department delta changes nothing. */
const isEmpty = (delta: DepartmentDelta) =>
  Object.values(delta.usage).every((n) => n === 0) &&
  Object.values(delta.cells).every((n) => n === 0) &&
  Object.values(delta.logins).every((n) => n === 0);

/**
 * The counter writes of `deltas`, in a fixed order. `shardId` spreads the
 * shared counters; `explainDepartment` explains a department's failed
 * condition (gone, or over a quota the change raises).
 */
export function counterWrites(
  deltas: CounterDeltas,
  shardId: string,
  now: string,
  explainDepartment: (id: string, delta: DepartmentDelta) => Explain,
): Write[] {
  const writes: Write[] = [];
  for (const [departmentId, delta] of deltas.departments) {
    if (!isEmpty(delta)) writes.push(addUsageWrite(departmentId, delta, now, explainDepartment(departmentId, delta)));
  }
  writes.push(...addCounters(shardId, deltas.cells));
  const shard = shardOf(shardId);
  for (const [key, days] of deltas.logins) {
    const [membership, month] = key.split('|') as [Membership, string];
    writes.push(...addLoginDays(membership, month, shard, days));
  }
  for (const { scope, name, delta } of deltas.names.values()) writes.push(...addNameCount(scope, name, delta));
  return writes;
}

/** How many transaction items `deltas` writes (the bulk move packs its parts with this). */
export function counterWriteCount(deltas: CounterDeltas): number {
  let count = [...deltas.departments.values()].filter((delta) => !isEmpty(delta)).length;
  if (Object.values(deltas.cells).some((n) => n !== 0)) count++;
  count += [...deltas.logins.values()].filter((days) => Object.values(days).some((n) => n !== 0)).length;
  count += [...deltas.names.values()].filter(({ delta }) => delta !== 0).length;
  return count;
}
