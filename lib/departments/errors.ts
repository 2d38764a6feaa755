/** The problems of department membership, shared by the single and bulk operations. */
import { notFound, Problem } from '../problems';
import { StaleReadError } from '../db/errors';
import type { Explain } from '../db/transact';
import { toDepartment } from '../store/departments';
import { overagesOf, quotaExceeded, type Usage } from './quotas';

export const departmentNotFound = (id: string) => notFound('Department', id);

export function notAMember(departmentId: string, userIds: string[]): Problem {
  return new Problem('not-a-member', `Not a member of department "${departmentId}": ${userIds.join(', ')}.`, { user_ids: userIds });
}

/** Explains a failed counter condition from the department as it stood: gone, over a quota, or only moved under us. */
export function explainUsageFailure(departmentId: string, raised: Usage): Explain {
  return (stored) => {
    if (!stored) return departmentNotFound(departmentId);
    const overages = overagesOf(toDepartment(stored), raised);
    if (overages.length > 0) return quotaExceeded(departmentId, overages);
    return new StaleReadError(); // the counters moved but the change fits: try again
  };
}
