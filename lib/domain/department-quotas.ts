/** E6 and E7: reading a department's six quotas and setting an editable limit. */
import { transactWrite } from '../db/transact';
import { tableName } from '../db/client';
import { departmentKey } from '../db/keys';
import type { Item } from '../db/query';
import { DomainError, notFound } from '../errors';
import { auditWrite, type ChangeContext } from './audit';
import { findDepartmentItem } from './departments';
import {
  EDITABLE_QUOTAS,
  limitAttribute,
  limitsOf,
  QUOTA_NAMES,
  quotaUsage,
  storedUsage,
  type CountedQuota,
  type QuotaName,
} from './quotas';

export interface Quota {
  name: QuotaName;
  limit: number | null;
  usage: number;
  editable: boolean;
}

function quotasOf(department: Item): Quota[] {
  const usage = quotaUsage(storedUsage(department));
  const limits = limitsOf(department);
  return QUOTA_NAMES.map((name) => ({ name, limit: limits[name], usage: usage[name], editable: EDITABLE_QUOTAS.includes(name) }));
}

/** E6: all six quotas, in API.md's order. */
export async function getQuotas(departmentId: string): Promise<{ department_id: string; quotas: Quota[] }> {
  const department = await findDepartmentItem(departmentId);
  if (!department) throw notFound('Department', departmentId);
  return { department_id: departmentId, quotas: quotasOf(department) };
}

/**
 * E7: sets (or with null removes) one limit. A limit below the current usage
 * is accepted: members stay, further additions fail.
 */
export async function setQuotaLimit(ctx: ChangeContext, departmentId: string, name: QuotaName, limit: number | null): Promise<Quota> {
  if (!EDITABLE_QUOTAS.includes(name)) {
    throw new DomainError('quota-not-editable', `The ${name} quota comes from the deployment (DEPARTMENT_SEATS) and cannot be edited.`);
  }
  const attribute = limitAttribute(name as CountedQuota);
  const now = new Date().toISOString();
  const values: Record<string, unknown> = { ':one': 1, ':now': now, ...(limit === null ? {} : { ':limit': limit }) };
  await transactWrite([
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: departmentKey(departmentId),
          UpdateExpression:
            limit === null
              ? 'REMOVE #limit SET updated_at = :now ADD version :one'
              : 'SET #limit = :limit, updated_at = :now ADD version :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#limit': attribute },
          ExpressionAttributeValues: values,
        },
      },
      explain: () => notFound('Department', departmentId),
    },
    auditWrite(ctx, { resourceType: 'department', resourceId: departmentId, changes: { quota: name, limit } }, now),
  ]);
  const { quotas } = await getQuotas(departmentId);
  return quotas.find((quota) => quota.name === name)!;
}
