/** The user routes. */
import type { OperationNameOf } from '../../routes';
import * as responses from '../../schemas/responses';
import { ETAG, listResponse, location, userList, type OperationDoc } from './shared';

export const userDocs = {
  createUser: {
    description: '`email` is unique (compared case-insensitively); the server makes an `id` when none is given.',
    responses: { 201: { description: 'The new user.', schema: responses.user, headers: { Location: location('user'), ETag: ETAG } } },
    requestExample: {
      id: 'ada',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      account_role: 'member',
      activated: true,
    },
  },
  listUsers: {
    description: 'Every user, in or out of a department. Same parameters as E1.',
    responses: { 200: listResponse('users', responses.userList) },
    ...userList,
  },
  getUser: {
    responses: { 200: { description: 'The user.', schema: responses.user, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  updateUser: {
    description:
      "A change of `account_role` or `activated` of a department member is checked against that department's quotas. `department_id` is not accepted: membership changes through E2–E5.",
    responses: { 200: { description: 'The user as changed.', schema: responses.user, headers: { ETag: ETAG } } },
    problems: ['not-found', 'quota-exceeded'],
    requestExample: { account_role: 'manager', activated: true },
    ifMatch: true,
  },
  deleteUser: {
    // Another user than the one the other examples read and change: a collection that runs every example in order keeps `ada`.
    parameterExamples: { user_id: 'leaver' },
    description: 'The user leaves its department and its groups.',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    ifMatch: true,
  },
} satisfies Record<OperationNameOf<'Users'>, OperationDoc>;
