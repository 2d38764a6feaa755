import { createGroup } from '../lib/groups/create';
import { groupAfterChange, membersOf } from '../lib/groups/groups';
import { resourceId } from '../lib/http/applying';
import { withUsers } from '../lib/groups/member-list';
import { etagOf } from '../lib/http/etag';
import { operation } from '../lib/http/operation';
import { dryRunQuery } from '../lib/schemas/common';
import { createGroupBody } from '../lib/schemas/groups';

/**
 * Create a group, optionally with its users (all or nothing) or a rule. A dry
 * run answers 200 with the group as it would be (with a rule, its
 * `rule_preview`), or the problem it would get, without Location or ETag:
 * nothing was created.
 */
const created = (group: Awaited<ReturnType<typeof groupAfterChange>>, users: Parameters<typeof withUsers>[1]) => ({
  status: 201 as const,
  body: withUsers(group, users),
  headers: { location: `/v2/groups/${group.id}`, etag: etagOf(group.version) },
});

export const handler = operation(
  'createGroup',
  { query: dryRunQuery, body: createGroupBody },
  async ({ query, body, ctx }) => {
    const dryRun = query.dry_run === 'true';
    const { group, users, rulePreview } = await createGroup(ctx, body, { dryRun });
    if (dryRun) return { body: { ...withUsers(group, users), ...(rulePreview ? { rule_preview: rulePreview } : {}) } };
    return created(group, users);
  },
  {
    // A repeat once a large create that answered 202 is complete: the group as it now is.
    settled: async (_, resource) => {
      const group = await groupAfterChange(resourceId(resource));
      return created(group, await membersOf(group));
    },
  },
);
