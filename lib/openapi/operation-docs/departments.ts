/** The department routes: departments, their members (E1–E5) and quotas. */
import type { OperationNameOf } from '../../routes';
import * as responses from '../../schemas/responses';
import { APPLYING, ETAG, listResponse, location, namedList, userList, type OperationDoc } from './shared';

export const departmentDocs = {
  createDepartment: {
    description: 'The server makes an `id` when none is given; `users` and `exports` cannot be department ids.',
    responses: {
      201: { description: 'The new department.', schema: responses.department, headers: { Location: location('department'), ETag: ETAG } },
    },
    requestExample: { id: 'eng', name: 'Engineering' },
  },
  listDepartments: {
    responses: { 200: listResponse('departments', responses.departmentList) },
    ...namedList('departments'),
  },
  getDepartment: {
    responses: { 200: { description: 'The department.', schema: responses.department, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  updateDepartment: {
    responses: { 200: { description: 'The department as renamed.', schema: responses.department, headers: { ETag: ETAG } } },
    problems: ['not-found'],
    requestExample: { name: 'Research and Development' },
    ifMatch: true,
  },
  listDepartmentUsers: {
    description: 'E1 restricted to one department.',
    responses: { 200: listResponse('users', responses.userList) },
    problems: ['not-found'],
    ...userList,
  },
  listMemberUsers: {
    description: 'Users that belong to any department.',
    responses: { 200: listResponse('users', responses.userList) },
    ...userList,
  },
  addDepartmentUser: {
    description:
      'No body. A user in another department moves: it leaves the old one in the same atomic step. Already a member: 200, nothing changes. An addition that would exceed any quota: 409 `quota-exceeded` with every quota it would exceed.',
    responses: {
      200: {
        description: 'The user, now in this department.',
        schema: responses.user,
        headers: { ETag: { description: 'Version tag of the user, for `If-Match`; none on a dry run.' } },
      },
    },
    problems: ['not-found', 'quota-exceeded'],
  },
  addDepartmentUsers: {
    description:
      'All or nothing: unknown users give 404 `not-found` with `missing_user_ids`, a quota that would be exceeded gives 409 `quota-exceeded`, and nothing changes. Repeated ids are ignored.',
    responses: {
      200: { description: 'The users, in request order.', schema: responses.users },
      202: APPLYING('the department; its users show their new `department_id` as each part is applied'),
    },
    problems: ['not-found', 'quota-exceeded'],
    requestExample: { user_ids: ['ada', 'grace'] },
  },
  removeDepartmentUser: {
    description: "The user's `department_id` becomes null.",
    responses: { 204: { description: 'Removed.' } },
    problems: ['not-found', 'not-a-member'],
  },
  removeDepartmentUsers: {
    description:
      'All or nothing: users that are not members of this department give 404 `not-a-member` with `user_ids`, and nothing changes.',
    responses: { 204: { description: 'Removed.' }, 202: APPLYING('the department; its users leave it as each part is applied') },
    problems: ['not-found', 'not-a-member'],
    requestExample: { user_ids: ['ada', 'grace'] },
  },
  getDepartmentQuotas: {
    description: 'All six quotas in a fixed order: `users`, `activated_users`, `admins`, `managers`, `guests`, `seats`.',
    responses: { 200: { description: "The department's quotas.", schema: responses.departmentQuotas } },
    problems: ['not-found'],
  },
  setDepartmentQuota: {
    description:
      '`limit: null` removes the limit. A limit below the current usage is accepted: members stay, further additions fail. `seats` comes from the deployment: 403 `quota-not-editable`.',
    responses: { 200: { description: 'The quota.', schema: responses.quota } },
    problems: ['not-found', 'quota-not-editable'],
    requestExample: { name: 'users', limit: 10 },
  },
  deleteDepartment: {
    // Another department than `eng`, which the other examples use: an empty one that may go.
    parameterExamples: { department_id: 'closing' },
    description: 'Only an empty department can go: 409 `department-not-empty` (with `user_count`) while it has users.',
    responses: { 200: { description: 'Deleted.', schema: responses.departmentDeleted } },
    problems: ['not-found', 'department-not-empty'],
    ifMatch: true,
  },
} satisfies Record<OperationNameOf<'Departments'>, OperationDoc>;
