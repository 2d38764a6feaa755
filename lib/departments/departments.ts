/** Departments: representation, create, read, rename, list and E8 delete. */
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite } from '../db/transact';
import { newId } from '../ids';
import { listNamed, type NamedListRequest } from '../lists/named';
import { conflict, preconditionFailed, Problem, validationError } from '../problems';
import {
  createDepartmentWrite,
  deleteDepartmentWrite,
  departmentList,
  findDepartment,
  newDepartmentItem,
  renameDepartmentWrite,
  toDepartment,
  type Department,
  type StoredDepartment,
} from '../store/departments';
import { addCounters, DEPARTMENTS_COUNTER } from '../store/stats';
import { departmentNotFound } from './errors';

export type { Department, StoredDepartment };

/** Path words under /v2/departments that cannot be department ids. */
export const RESERVED_DEPARTMENT_IDS = ['users', 'exports'];

export const departmentRepresentation = ({ id, name, user_count, created_at, updated_at }: StoredDepartment): Department => ({
  id,
  name,
  user_count,
  created_at,
  updated_at,
});

export async function getDepartment(id: string): Promise<StoredDepartment> {
  const department = await findDepartment(id);
  if (!department) throw departmentNotFound(id);
  return department;
}

export async function createDepartment(ctx: ChangeContext, input: { id?: string; name: string }): Promise<StoredDepartment> {
  const id = input.id ?? newId();
  if (RESERVED_DEPARTMENT_IDS.includes(id)) {
    throw validationError([{ field: 'id', message: `"${id}" is reserved; choose another id` }]);
  }
  const now = new Date().toISOString();
  const item = newDepartmentItem(id, input.name, now);
  const department = toDepartment(item);
  await transactWrite([
    createDepartmentWrite(item, () => conflict(`A department with id "${id}" already exists.`, { field: 'id' })),
    ...addCounters(id, { [DEPARTMENTS_COUNTER]: 1 }),
    recordChange(ctx, { resourceType: 'department', resourceId: id, changes: { created: departmentRepresentation(department) } }),
  ]);
  return department;
}

/** Explains a failed "exists [and is at version]" condition from the department as it stood. */
const missingOrStale = (id: string) => (stored: unknown) => (stored ? preconditionFailed() : departmentNotFound(id));

export async function renameDepartment(ctx: ChangeContext, id: string, name: string, expectedVersion?: number): Promise<StoredDepartment> {
  const now = new Date().toISOString();
  await transactWrite([
    renameDepartmentWrite(id, name, now, expectedVersion, missingOrStale(id)),
    recordChange(ctx, { resourceType: 'department', resourceId: id, changes: { name } }),
  ]);
  return getDepartment(id);
}

/**
 * E8. The delete is conditional on the department having no users; every
 * addition is conditional on the department existing. Both conditions are on
 * the same item, so a delete and an addition can never both win.
 */
export async function deleteDepartment(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  const now = new Date().toISOString();
  await transactWrite([
    deleteDepartmentWrite(id, expectedVersion, (stored) => {
      if (!stored) return departmentNotFound(id);
      const department = toDepartment(stored);
      // A stale tag is answered first (RFC 9110 evaluates preconditions before the method).
      if (expectedVersion !== undefined && department.version !== expectedVersion) return preconditionFailed();
      if (department.user_count > 0) {
        return new Problem(
          'department-not-empty',
          `Department "${id}" still has ${department.user_count} user(s); remove them first (E4/E5).`,
          {
            user_count: department.user_count,
          },
        );
      }
      return preconditionFailed();
    }),
    ...addCounters(id, { [DEPARTMENTS_COUNTER]: -1 }),
    recordChange(ctx, { resourceType: 'department', resourceId: id, changes: { deleted: true } }),
  ]);
}

export async function listDepartments(request: NamedListRequest) {
  const { items, ...page } = await listNamed(
    {
      kind: 'departments',
      list: departmentList,
      counter: DEPARTMENTS_COUNTER,
      toResource: (item) => departmentRepresentation(toDepartment(item)),
    },
    request,
  );
  return { departments: items, ...page };
}
