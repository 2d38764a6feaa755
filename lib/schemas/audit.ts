import * as z from 'zod/mini';
import { isoTime, pagination, queryParam } from './common';

export const auditListQuery = z.strictObject({ ...pagination, query: queryParam, since: z.optional(isoTime), before: z.optional(isoTime) });
