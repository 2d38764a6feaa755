import { getQuotas } from '../lib/departments/quota-limits';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';

/** E6: the department's six quotas. */
export const handler = operation('E6', { params: departmentIdParams }, async ({ params }) => ({
  body: await getQuotas(params.department_id),
}));
