/** E6 and E7: reading a department's six quotas and setting an editable limit. */
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite } from '../db/transact';
import { Problem } from '../problems';
import { QUOTA_NAMES, type CountedQuota, type QuotaName } from '../schemas/enums';
import type { Quota } from '../schemas/responses';
import { setLimitWrite, type StoredDepartment } from '../store/departments';
import { getDepartment } from './departments';
import { departmentNotFound } from './errors';
import { EDITABLE_QUOTAS, limitsOf, quotaUsage } from './quotas';

function quotasOf(department: StoredDepartment): Quota[] {
  const usage = quotaUsage(department.usage);
  const limits = limitsOf(department);
  return QUOTA_NAMES.map((name) => ({ name, limit: limits[name], usage: usage[name], editable: EDITABLE_QUOTAS.includes(name) }));
}

/** E6: all six quotas, in the order the OpenAPI document lists them. */
export async function getQuotas(departmentId: string): Promise<{ department_id: string; quotas: Quota[] }> {
  return { department_id: departmentId, quotas: quotasOf(await getDepartment(departmentId)) };
}

/**
 * E7: sets (or with null removes) one limit. A limit below the current usage
 * is accepted: members stay, further additions fail.
 */
export async function setQuotaLimit(ctx: ChangeContext, departmentId: string, name: QuotaName, limit: number | null): Promise<Quota> {
  if (!EDITABLE_QUOTAS.includes(name)) {
    throw new Problem('quota-not-editable', `The ${name} quota comes from the deployment (DEPARTMENT_SEATS) and cannot be edited.`);
  }
  const now = new Date().toISOString();
  await transactWrite([
    setLimitWrite(departmentId, name as CountedQuota, limit, now, () => departmentNotFound(departmentId)),
    recordChange(ctx, { resourceType: 'department', resourceId: departmentId, changes: { quota: name, limit } }),
  ]);
  const { quotas } = await getQuotas(departmentId);
  return quotas.find((quota) => quota.name === name)!;
}
