import { getGroupWithUsers } from '../lib/groups/groups';
import { withUsers } from '../lib/groups/member-list';
import { dryRunGroupUpdate, updateGroup } from '../lib/groups/update';
import { etagOf, expectedVersion } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { dryRunQuery } from '../lib/schemas/common';
import { groupIdParams, updateGroupBody } from '../lib/schemas/groups';

/**
 * Rename and/or re-describe a group, or set, change or turn off its rule; answers the whole group, users included,
 * as getGroup does. A dry run answers the group as it is, with a rule's `rule_preview`; nothing changes.
 */
export const handler = operation(
  'updateGroup',
  { params: groupIdParams, query: dryRunQuery, body: updateGroupBody },
  async ({ params, query, body, headers, ctx }) => {
    const expected = expectedVersion(headers['if-match']);
    if (query.dry_run === 'true') {
      const { group, users, preview } = await dryRunGroupUpdate(params.group_id, body, expected);
      return {
        body: { ...withUsers(group, users), ...(preview ? { rule_preview: preview } : {}) },
        headers: { etag: etagOf(group.version) },
      };
    }
    await updateGroup(ctx, params.group_id, body, expected);
    const { group, users } = await getGroupWithUsers(params.group_id);
    return { body: withUsers(group, users), headers: { etag: etagOf(group.version) } };
  },
);
