import { getQuotas } from '../lib/domain/department-quotas';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';

/** E6: the department's six quotas. */
export const handler = operation({ operationId: 'E6', params: departmentIdParams }, async ({ params }) => ({
  body: await getQuotas(params.department_id),
}));
