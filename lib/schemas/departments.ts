import * as z from 'zod/mini';
import { displayName, id, pagination, queryParam, sortParam } from './common';

export const createDepartmentBody = z.strictObject({ id: z.optional(id), name: displayName });
export const updateDepartmentBody = z.strictObject({ name: displayName });
export const departmentListQuery = z.strictObject({ ...pagination, sort: sortParam, query: queryParam });
