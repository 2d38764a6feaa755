import { setQuotaLimit } from '../lib/departments/quota-limits';
import { operation } from '../lib/http/operation';
import { departmentIdParams } from '../lib/schemas/common';
import { setQuotaBody } from '../lib/schemas/quotas';

/** E7: set or (with null) remove one quota limit. */
export const handler = operation('E7', { params: departmentIdParams, body: setQuotaBody }, async ({ params, body, ctx }) => ({
  body: await setQuotaLimit(ctx, params.department_id, body.name, body.limit),
}));
