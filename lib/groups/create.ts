/**
 * G3: create a group, with up to 10,000 users, all or nothing.
 *
 * Every user is read first (BatchGetItem): any unknown → 404 with
 * `missing_user_ids`, and nothing was written. Then:
 *
 * - Up to `singleTransactionUsers` (32) users: one transaction holds the
 *   group, its name claim, the groups counter, the audit entry and, per user,
 *   the two membership items and a check that the user exists and is not
 *   being deleted (members.ts says why).
 *
 * - More users cannot be one transaction (100 items, 3 per user): the group
 *   is created by the commit of a large change of its members
 *   (bulk-change.ts), which then writes them in parts. The commit creates it
 *   whole (its name claim, the groups counter, its final `user_count`, the
 *   audit entries naming every user) holding the change, so G1 shows it
 *   `bulk_status: applying` with the members written so far until the last
 *   part is; a request that would outlast its deadline answers 202 and the
 *   healer completes it (lib/slow-changes.ts). Nothing is created when the
 *   commit fails (a name taken meanwhile, an id taken).
 */
import type { ChangeContext } from '../audit/context';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { newId } from '../ids';
import { conflict, Problem, validationError } from '../problems';
import { claimHolder } from '../store/claims';
import { findGroupNameClaim } from '../store/group-names';
import {
  createGroupWrite,
  findGroupItem,
  newGroupItem,
  toGroup,
  type GroupRef,
  type NewGroupFields,
  type RuleSetting,
  type StoredGroup,
} from '../store/groups';
import { addCounters, GROUPS_COUNTER } from '../store/stats';
import type { User } from '../users/user';
import { changeGroupMembersInParts } from './bulk-change';
import {
  claimIdentity,
  externalIdTaken,
  groupAudit,
  createdRecord,
  groupTuning,
  MAX_GROUP_USERS,
  nameTaken,
  readUsers,
  RESERVED_GROUP_IDS,
  ruleManaged,
  sortMembers,
} from './groups';
import { parseRule, ruleText } from './rule';
import { checkRuleFits, ruleGroupsCountWrite } from './rule-limits';
import { ruleChangeWrites } from './rule-writes';
import { countMatching, previewRule, type RulePreview } from './rule-preview';
import { MissingUserError, newMembership, userCheckWrite } from './members';

export interface NewGroup {
  id?: string;
  name: string;
  description?: string;
  external_id?: string | null;
  user_ids?: string[];
  /** A rule (lib/groups/rule.ts): the members are then the users it matches, joined after the group is created. */
  rule?: string | null;
}

export function missingUsers(userIds: string[]): Problem {
  return new Problem('not-found', `Unknown user(s): ${userIds.join(', ')}.`, { missing_user_ids: userIds });
}

async function missingOf(userIds: string[]): Promise<string[]> {
  const found = await readUsers(userIds);
  return userIds.filter((id) => !found.has(id));
}

/**
 * G3. With `dryRun`, every check is made by reading (unknown users, id and
 * name taken) and the group is answered as it would be; nothing is written.
 */
export async function createGroup(
  ctx: ChangeContext,
  input: NewGroup,
  options: { dryRun?: boolean } = {},
): Promise<{ group: StoredGroup; users: User[]; rulePreview?: RulePreview }> {
  const id = input.id ?? newId();
  if (RESERVED_GROUP_IDS.includes(id)) throw validationError([{ field: 'id', message: `"${id}" is reserved; choose another id` }]);
  if (typeof input.rule === 'string') return createRuleGroup(ctx, { ...input, id }, input.rule, options);
  const userIds = [...new Set(input.user_ids ?? [])];
  if (userIds.length > MAX_GROUP_USERS) {
    throw conflict(`A group holds at most ${MAX_GROUP_USERS} users; ${userIds.length} were given.`, { limit: MAX_GROUP_USERS });
  }
  const found = await readUsers(userIds);
  const missing = userIds.filter((userId) => !found.has(userId));
  if (missing.length > 0) throw missingUsers(missing);
  const users = sortMembers(userIds.map((userId) => found.get(userId)!));
  const fields = { id, name: input.name, description: input.description ?? '', external_id: input.external_id ?? null };
  if (options.dryRun) return { group: await wouldCreate(fields, userIds.length), users };
  try {
    const group =
      userIds.length <= groupTuning().singleTransactionUsers
        ? await createAtOnce(ctx, fields, userIds)
        : await createInParts(ctx, fields, userIds);
    return { group, users };
  } catch (error) {
    if (error instanceof MissingUserError) {
      const missing = await missingOf(userIds);
      throw missingUsers(missing.length > 0 ? missing : [error.userId]);
    }
    throw error;
  }
}

/**
 * G3 with a rule: the group is created empty with `rule_status: applying`
 * (and counted among the rule groups, at most 500); the rule's joins are
 * then written by the rule worker (rule-follow.ts). Members given by hand
 * with a rule are refused: the rule keeps them.
 */
async function createRuleGroup(
  ctx: ChangeContext,
  input: NewGroup & { id: string },
  text: string,
  options: { dryRun?: boolean },
): Promise<{ group: StoredGroup; users: User[]; rulePreview?: RulePreview }> {
  const rule = parseRule(text);
  if ((input.user_ids ?? []).length > 0) throw ruleManaged(input.id);
  const setting = { text: ruleText(rule), version: newId() };
  const fields = { id: input.id, name: input.name, description: input.description ?? '', external_id: input.external_id ?? null };
  if (options.dryRun) {
    const [group, rulePreview] = await Promise.all([wouldCreate(fields, 0, setting), previewRule(null, rule)]);
    checkRuleFits(rulePreview.matching);
    return { group, users: [], rulePreview };
  }
  checkRuleFits(await countMatching(rule));
  const group = await withFreshRead(async () => {
    const now = new Date().toISOString();
    const item = newGroupItem(fields, newId(), now, { user_count: 0, version: 1, rule: setting });
    const created = toGroup(item);
    await transactWrite([
      createGroupWrite(item, () => idTaken(fields.id)),
      ...claimIdentity(fields.id, fields.name, fields.external_id),
      ...addCounters(fields.id, { [GROUPS_COUNTER]: 1 }),
      ruleGroupsCountWrite(1),
      ...ruleChangeWrites(fields.id, null, setting, now),
      groupAudit(ctx, fields.id, { created: createdRecord(created) }, now),
    ]);
    return created;
  });
  return { group, users: [] };
}

const idTaken = (id: string) => conflict(`A group with id "${id}" already exists.`, { field: 'id' });

async function wouldCreate(fields: NewGroupFields, userCount: number, rule?: RuleSetting): Promise<StoredGroup> {
  const [existing, claim, external] = await Promise.all([
    findGroupItem(fields.id),
    findGroupNameClaim(fields.name),
    fields.external_id === null ? undefined : claimHolder('group_external_id', fields.external_id),
  ]);
  if (existing) throw idTaken(fields.id);
  if (claim) throw nameTaken(fields.name);
  if (external) throw externalIdTaken(fields.external_id!);
  const now = new Date().toISOString();
  return { ...toGroup(newGroupItem(fields, '', now, { user_count: userCount, version: 1, rule })), generation: '' };
}

const memberWrites = (group: GroupRef, userIds: string[], now: string): Write[] =>
  userIds.flatMap((userId) => [userCheckWrite(userId, now), ...newMembership(group, userId, now)]);

/** Up to `singleTransactionUsers` users: everything in one transaction. */
async function createAtOnce(ctx: ChangeContext, fields: NewGroupFields, userIds: string[]): Promise<StoredGroup> {
  return withFreshRead(async () => {
    const now = new Date().toISOString();
    const item = newGroupItem(fields, newId(), now, { user_count: userIds.length, version: 1 });
    const group = toGroup(item);
    const changes = { created: createdRecord(group), ...(userIds.length > 0 ? { added_user_ids: userIds } : {}) };
    await transactWrite([
      createGroupWrite(item, () => idTaken(fields.id)),
      ...claimIdentity(fields.id, fields.name, fields.external_id),
      ...addCounters(fields.id, { [GROUPS_COUNTER]: 1 }),
      groupAudit(ctx, fields.id, changes, now),
      ...memberWrites(group, userIds, now),
    ]);
    return group;
  });
}

/** More users: the commit of a large change creates the group, whose members its parts then write (see the top of this file). */
async function createInParts(ctx: ChangeContext, fields: NewGroupFields, userIds: string[]): Promise<StoredGroup> {
  const now = new Date().toISOString();
  const generation = newId();
  const group: StoredGroup = {
    ...toGroup(newGroupItem(fields, generation, now, { user_count: 0, version: 0 })),
    generation,
  };
  const creation = {
    // Made at `now`, as the answer says (the commit's own time is later by the parts' writing).
    writes: (changeId: string): Write[] => {
      const item = newGroupItem(fields, generation, now, { user_count: userIds.length, version: 1, change_id: changeId });
      return [
        createGroupWrite(item, () => idTaken(fields.id)),
        ...claimIdentity(fields.id, fields.name, fields.external_id),
        ...addCounters(fields.id, { [GROUPS_COUNTER]: 1 }),
      ];
    },
    audit: { created: createdRecord({ ...group, user_count: userIds.length }) },
  };
  return changeGroupMembersInParts(ctx, { group, adds: userIds, removes: [], addsRead: true, creation });
}
