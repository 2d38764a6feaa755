/**
 * Department quotas. Usage of every quota is a counter on the department item
 * (`usage_<quota>`), moved in the same transaction as the membership change;
 * limits are `limit_<quota>` (absent = no limit). `seats` counts every member
 * like `users`, and its limit comes from the deployment (DEPARTMENT_SEATS).
 */
import { config } from '../config';

export const QUOTA_NAMES = ['users', 'activated_users', 'admins', 'managers', 'guests', 'seats'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** Quotas with a counter of their own; `seats` reads the `users` counter. */
export const COUNTED_QUOTAS = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;
export type CountedQuota = (typeof COUNTED_QUOTAS)[number];
export const EDITABLE_QUOTAS: readonly QuotaName[] = COUNTED_QUOTAS;

export type Usage = Record<CountedQuota, number>;

export const usageAttribute = (quota: CountedQuota) => `usage_${quota}`;
export const limitAttribute = (quota: CountedQuota) => `limit_${quota}`;

export const ACCOUNT_ROLES = ['admin', 'manager', 'member', 'guest'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

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

export const NO_USAGE: Usage = { users: 0, activated_users: 0, admins: 0, managers: 0, guests: 0 };

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

export function isZeroUsage(usage: Usage): boolean {
  return COUNTED_QUOTAS.every((q) => usage[q] === 0);
}

/** The department's counters as stored. */
export function storedUsage(department: Record<string, unknown>): Usage {
  return Object.fromEntries(COUNTED_QUOTAS.map((q) => [q, Number(department[usageAttribute(q)] ?? 0)])) as Usage;
}

/** Limit of each quota (null = none), `seats` from configuration. */
export function limitsOf(department: Record<string, unknown>): Record<QuotaName, number | null> {
  const limits = Object.fromEntries(
    COUNTED_QUOTAS.map((q) => {
      const value = department[limitAttribute(q)];
      return [q, typeof value === 'number' ? value : null];
    }),
  ) as Record<QuotaName, number | null>;
  limits.seats = config().departmentSeats;
  return limits;
}

/** Usage of every quota, `seats` included. */
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
export function overagesOf(department: Record<string, unknown>, requested: Usage): Overage[] {
  const usage = quotaUsage(storedUsage(department));
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
