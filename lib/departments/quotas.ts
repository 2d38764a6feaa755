/**
 * Department quotas: what a member counts for, the limits (with `seats`
 * from the deployment), and which quotas an addition would exceed. The
 * counters and their conditions live on the department item
 * (lib/store/departments.ts).
 */
import { config } from '../config';
import { recordMetric } from '../metrics';
import { Problem } from '../problems';
import { COUNTED_QUOTAS, QUOTA_NAMES, type AccountRole, type QuotaName } from '../schemas/enums';
import { NO_USAGE, type StoredDepartment, type Usage } from '../store/departments';

export { NO_USAGE, type Usage };

/** Every counted quota is editable; `seats` comes from the deployment (DEPARTMENT_SEATS). */
export const EDITABLE_QUOTAS: readonly QuotaName[] = COUNTED_QUOTAS;

/** What one member contributes to its department's counters. */
export function usageOf(member: { account_role: AccountRole; activated: boolean }): Usage {
  return {
    users: 1,
    activated_users: member.activated ? 1 : 0,
    admins: member.account_role === 'admin' ? 1 : 0,
    managers: member.account_role === 'manager' ? 1 : 0,
    guests: member.account_role === 'guest' ? 1 : 0,
  };
}

export function scaleUsage(usage: Usage, factor: number): Usage {
  return Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, usage[q] * factor])) as Usage;
}

export function addUsage(a: Usage, b: Usage): Usage {
  return Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, a[q] + b[q]])) as Usage;
}

export function sumUsage(usages: Iterable<Usage>): Usage {
  let total = NO_USAGE;
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}

export const isZeroUsage = (usage: Usage) => COUNTED_QUOTAS.every((q) => usage[q] === 0);

/** The part of a change that raises counters (what quota conditions guard). */
export const raisedPart = (usage: Usage): Usage => Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, Math.max(0, usage[q])])) as Usage;

/** Limit of each quota (null = none), `seats` from the deployment. */
export function limitsOf(department: StoredDepartment): Record<QuotaName, number | null> {
  return { ...department.limits, seats: config().departmentSeats };
}

/** Usage of every quota, `seats` included (it counts every member, like `users`). */
export function quotaUsage(usage: Usage): Record<QuotaName, number> {
  return { ...usage, seats: usage.users };
}

export interface Overage {
  quota: QuotaName;
  limit: number;
  usage: number;
  requested: number;
  overage: number;
}

/** Every quota that adding `requested` to the department as it stands would exceed. */
export function overagesOf(department: StoredDepartment, requested: Usage): Overage[] {
  const usage = quotaUsage(department.usage);
  const asked = quotaUsage(requested);
  const limits = limitsOf(department);
  const overages: Overage[] = [];
  for (const quota of QUOTA_NAMES) {
    const limit = limits[quota];
    if (limit === null || asked[quota] <= 0) continue;
    const overage = usage[quota] + asked[quota] - limit;
    if (overage > 0) overages.push({ quota, limit, usage: usage[quota], requested: asked[quota], overage });
  }
  return overages;
}

/** The refusal of a change that would take the department over its quotas; each quota it exceeds counts as a `QuotaRefusals`. */
export function quotaExceeded(departmentId: string, overages: Overage[]): Problem {
  for (const { quota } of overages) recordMetric('quotaRefusals', 1, { Quota: quota });
  const names = overages.map((o) => o.quota).join(', ');
  return new Problem('quota-exceeded', `Department "${departmentId}" would exceed its ${names} quota.`, { overages });
}
