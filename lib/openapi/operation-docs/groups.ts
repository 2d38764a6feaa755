/** The group routes, manual and kept by a rule. */
import type { OperationNameOf } from '../../routes';
import { GROUP_USER_SORT_FIELDS } from '../../schemas/enums';
import * as responses from '../../schemas/responses';
import { sortSchema } from '../parameters';
import { APPLYING, ETAG, listResponse, location, namedList, sortText, userList, userListParameters, type OperationDoc } from './shared';

/** lib/groups/bulk-change.ts holds a group while it applies a large change of its members. */
const GROUP_BUSY =
  " While an identity provider's change of many of the group's members is being applied (seconds), other member changes and its deletion get 409 `conflict`: retry.";

/** lib/groups/rule.ts and rule-preview.ts: what a rule is, and its limits. */
const RULE_DOC =
  '`rule` keeps the members by department, role and activation: the `query` syntax over `department_id` (an existing department; at most 40), `account_role` and `activated` ' +
  '(e.g. `department_id:eng,department_id:ops,account_role:admin,activated:true`); every user change then joins or leaves it within 5 seconds, audited with actor `rule:<group id>`. ' +
  'A rule matching more than 10,000 users is a 409 `conflict` with `matching`; at most 500 groups have a rule (409).';

export const groupDocs = {
  getGroup: {
    description:
      'The group with its users, sorted by `last_name`, then `id`: every one when it has at most 1,000, else the first 1,000 and `users_next_cursor`, the `cursor` of `GET /v2/groups/{group_id}/users` (listGroupUsers) that continues after them (null when all are there). Every answer stays within the 6 MB a function can return.',
    responses: { 200: { description: 'The group.', schema: responses.group, headers: { ETag: ETAG } } },
    problems: ['not-found'],
  },
  listGroupUsers: {
    description:
      "A group's users, a page at a time, with E1's parameters. `sort=id` (or `id:desc`) pages straight from the group's member partition: a page costs its own users, at any depth, and takes no filter (400). `sort=last_name` (the default, G1's order, which `users_next_cursor` of G1 continues) and the filters are answered by reading every member of the group, up to 10,000 users, for each page. E1's other orders (`account_role`, `activated`, `last_login`) are not served: 400.",
    responses: { 200: listResponse('users', responses.userList) },
    problems: ['not-found'],
    ...userList,
    parameters: { ...userListParameters, sort: `${sortText(GROUP_USER_SORT_FIELDS, 'last_name')} Only \`id\` costs a page.` },
    parameterSchemas: { ...userList.parameterSchemas, sort: sortSchema(GROUP_USER_SORT_FIELDS) },
  },
  listGroups: {
    description: 'Groups without their users.',
    responses: { 200: listResponse('groups', responses.groupList) },
    ...namedList('groups'),
  },
  createGroup: {
    description:
      'The name is unique case-insensitively (409). All or nothing: unknown users give 404 `not-found` with `missing_user_ids`; more than 10,000 users give 409. `exports` cannot be a group id. ' +
      RULE_DOC +
      ' With a rule the group is created empty, `rule_status: applying`; `user_ids` with a rule give 409 `rule-managed`.',
    responses: {
      201: { description: 'The new group with its users.', schema: responses.group, headers: { Location: location('group'), ETag: ETAG } },
      202: APPLYING('the group shows `bulk_status: applying` until every member is written, then `null`'),
      200: {
        description: 'Dry run (`dry_run=true`): the group as it would be, with a rule its `rule_preview`; nothing was created.',
        schema: responses.group,
      },
    },
    problems: ['not-found', 'rule-managed'],
    requestExample: { id: 'designers', name: 'Designers', description: 'Product and brand design', user_ids: ['ada', 'grace'] },
  },
  addGroupUser: {
    description: `Already a member: 200, nothing changes. A group holds at most 10,000 users (409). A rule group's members are kept by its rule: 409 \`rule-managed\`.${GROUP_BUSY}`,
    responses: { 200: { description: 'The user.', schema: responses.user } },
    problems: ['not-found', 'rule-managed'],
  },
  removeGroupUser: {
    description: `A rule group's members are kept by its rule: 409 \`rule-managed\`.${GROUP_BUSY}`,
    responses: { 204: { description: 'Removed.' } },
    problems: ['not-found', 'not-a-member', 'rule-managed'],
  },
  deleteGroup: {
    parameterExamples: { group_id: 'old-group' },
    description: `Its users stay; only the memberships go.${GROUP_BUSY}`,
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    ifMatch: true,
  },
  deleteGroups: {
    description: `All or nothing: any unknown group gives 404 \`not-found\` with \`missing_group_ids\`, and nothing is deleted.${GROUP_BUSY}`,
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
    // Not `designers`, which the other examples use.
    requestExample: { group_ids: ['reviewers', 'retired'] },
  },
  updateGroup: {
    description:
      'Give `name`, `description`, `external_id`, `rule` or any of them; a new name must be unique case-insensitively (409). An empty body changes nothing (200). ' +
      RULE_DOC +
      ' A new rule leaves the group `applying` until its joins and leaves are written; `rule: null` turns it back into a manual group, its members staying. ' +
      'With `dry_run=true` and a rule: the group as it is, with `rule_preview`; nothing changes.',
    responses: {
      200: {
        description: 'The group as changed (or, in a dry run, as it is with its `rule_preview`), with its users.',
        schema: responses.group,
        headers: { ETag: ETAG },
      },
    },
    problems: ['not-found'],
    requestExample: { name: 'Design', description: 'Product, brand and UX design' },
    ifMatch: true,
  },
} satisfies Record<OperationNameOf<'Groups'>, OperationDoc>;
