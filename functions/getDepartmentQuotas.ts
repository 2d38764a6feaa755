import { getQuotas } from '../lib/departments/quota-limits';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';

/** The department's six quotas. */
export const handler = operation('getDepartmentQuotas', { params: departmentIdParams }, async ({ params }) => ({
  body: await getQuotas(params.department_id),
}));
