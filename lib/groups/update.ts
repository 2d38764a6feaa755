/** PATCH /v2/groups/{id}: rename and/or re-describe a group, and set, change or turn off its rule. */
import type { ChangeContext } from '../audit/context';
import { StaleReadError } from '../db/errors';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { newId } from '../ids';
import { preconditionFailed } from '../problems';
import { isPublished, updateGroupWrite, type RuleSetting, type StoredGroup } from '../store/groups';
import type { User } from '../schemas/responses';
import { getGroup, getGroupWithUsers, groupAudit, groupNotFound, identityChangeWrites } from './groups';
import { parseRule, ruleText } from './rule';
import { checkRuleFits, ruleGroupsCountWrite } from './rule-limits';
import { ruleChangeWrites } from './rule-writes';
import { countMatching, previewRule, type RulePreview } from './rule-preview';

export interface GroupPatch {
  name?: string;
  description?: string;
  external_id?: string | null;
  /** A rule (lib/groups/rule.ts), or null to turn the group back into a manual one (its members stay). */
  rule?: string | null;
}

/**
 * A rename moves the name claim in the same transaction (unless only the case
 * changes). The write is conditional on the name read (so the claim released
 * is the one the group holds), and on the If-Match version when given; not on
 * the version otherwise, so that membership changes, which bump it, do not
 * make the update retry. A rule change is conditional on the rule read (so
 * the rule-group counter moves by what it really does) and leaves the group
 * `applying` until the rule worker has written its joins and leaves
 * (rule-follow.ts).
 */
export async function updateGroup(ctx: ChangeContext, id: string, patch: GroupPatch, expectedVersion?: number): Promise<StoredGroup> {
  return withFreshRead(async () => {
    const before = await getGroup(id);
    const { rule: ruleInput, ...fields } = patch;
    const after = { ...before, ...fields };
    const changes: Record<string, unknown> = {};
    if (after.name !== before.name) changes.name = { from: before.name, to: after.name };
    if (after.description !== before.description) changes.description = { from: before.description, to: after.description };
    if (after.external_id !== before.external_id) changes.external_id = { from: before.external_id, to: after.external_id };
    const rule = await ruleChange(before, ruleInput);
    if (rule !== undefined) changes.rule = { from: before.rule, to: rule?.text ?? null };
    if (Object.keys(changes).length === 0) {
      if (expectedVersion !== undefined && expectedVersion !== before.version) throw preconditionFailed();
      return before;
    }
    const now = new Date().toISOString();
    const writes: Write[] = [
      updateGroupWrite(
        {
          id,
          nameBefore: before.name,
          name: after.name,
          description: after.description,
          external_id: after.external_id,
          ruleVersionBefore: before.rule_version,
          rule,
        },
        now,
        expectedVersion,
        (stored) => {
          if (!isPublished(stored)) return groupNotFound(id);
          return expectedVersion !== undefined && stored.version !== expectedVersion ? preconditionFailed() : new StaleReadError();
        },
      ),
    ];
    writes.push(...identityChangeWrites(before, after));
    const ruleGroupsDelta = rule === undefined ? 0 : Number(rule !== null) - Number(before.rule !== null);
    if (ruleGroupsDelta !== 0) writes.push(ruleGroupsCountWrite(ruleGroupsDelta));
    if (rule !== undefined) writes.push(...ruleChangeWrites(id, before.rule, rule, now));
    writes.push(groupAudit(ctx, id, changes, now));
    await transactWrite(writes);
    const ruleFields =
      rule === undefined
        ? {}
        : rule === null
          ? { rule: null, rule_status: null, rule_version: undefined }
          : { rule: rule.text, rule_status: 'applying' as const, rule_version: rule.version };
    return { ...after, ...ruleFields, updated_at: now, version: before.version + 1 };
  });
}

/** The rule the patch sets (null: turned off; undefined: unchanged, as is the same rule given again); one matching too many users is a 409. */
async function ruleChange(before: StoredGroup, input: string | null | undefined): Promise<RuleSetting | null | undefined> {
  if (input === undefined) return undefined;
  if (input === null) return before.rule === null ? undefined : null;
  const rule = parseRule(input);
  const text = ruleText(rule);
  if (text === before.rule) return undefined;
  checkRuleFits(await countMatching(rule));
  return { text, version: newId() };
}

/**
 * The group PATCH's dry run: the group as it is (with its members) and, with a rule, that rule's preview; nothing
 * changes. Refused as the change would be: 412 for a stale If-Match, 400 for a bad rule, 409 for too many matches.
 */
export async function dryRunGroupUpdate(
  id: string,
  patch: GroupPatch,
  expectedVersion?: number,
): Promise<{ group: StoredGroup; users: User[]; preview?: RulePreview }> {
  const { group, users } = await getGroupWithUsers(id);
  if (expectedVersion !== undefined && expectedVersion !== group.version) throw preconditionFailed();
  if (typeof patch.rule !== 'string') return { group, users };
  const preview = await previewRule(group, parseRule(patch.rule));
  checkRuleFits(preview.matching);
  return { group, users, preview };
}
