import { setQuotaLimit } from '../lib/departments/quota-limits';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { setQuotaBody } from '../lib/schemas/quotas';

/** Set or (with null) remove one quota limit. */
export const handler = operation(
  'setDepartmentQuota',
  { params: departmentIdParams, body: setQuotaBody },
  async ({ params, body, ctx }) => ({
    body: await setQuotaLimit(ctx, params.department_id, body.name, body.limit),
  }),
);
