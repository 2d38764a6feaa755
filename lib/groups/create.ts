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
 * - More users cannot be one transaction (100 items, 3 per user), so the
 *   group is created hidden and published at the end:
 *   1. One transaction puts the group as `pending` (user_count 0, listed
 *      only among pending groups, sorted by `lease_until`) with its name
 *      claim, so the id and the name are taken at once. Every operation
 *      except user deletion treats a pending group as absent (404).
 *   2. The members are written in transactions of 32 users, 16 at a time,
 *      each with its users' checks and an audit entry naming them. They do
 *      not touch the group item, so they never conflict with each other.
 *      A user deleted meanwhile makes its transaction fail (404).
 *   3. One transaction publishes the group: `active`, listed by name, the
 *      groups counter, `user_count += n` (a user deleted while the group was
 *      pending has already taken itself off the count, so it is exact).
 *   Any failure before 3 commits rolls back: once no step is in flight, one
 *   transaction deletes the pending group and its name claim and leaves a
 *   cleanup marker for its generation, whose memberships are then swept
 *   (cleanup.ts). A creator that dies leaves its group pending;
 *   `sweepDeletedGroups` does the same roll-back once `lease_until` has
 *   passed. The lease (5 minutes) is far beyond the 10 s a route function
 *   runs, and a creator stops starting steps after half of it, so no step
 *   can land after the roll-back.
 */
import type { ChangeContext } from '../audit/context';
import { forEachConcurrently } from '../db/batch';
import { transactWrite, withFreshRead, type Write } from '../db/transact';
import { newId } from '../ids';
import { log } from '../log';
import { conflict, Problem, validationError } from '../problems';
import { claimHolder } from '../store/claims';
import { findGroupNameClaim } from '../store/group-names';
import {
  createGroupWrite,
  findGroupItem,
  newGroupItem,
  publishGroupWrite,
  toGroup,
  type GroupRef,
  type NewGroupFields,
  type RuleSetting,
  type StoredGroup,
} from '../store/groups';
import { addCounters, GROUPS_COUNTER } from '../store/stats';
import type { User } from '../users/user';
import { abandonPendingGroup } from './cleanup';
import {
  claimIdentity,
  externalIdTaken,
  groupAudit,
  groupRepresentation,
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
        : await createInSteps(ctx, fields, userIds);
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
    const item = newGroupItem(fields, newId(), now, { state: 'active', user_count: 0, version: 1, rule: setting });
    const created = toGroup(item);
    await transactWrite([
      createGroupWrite(item, () => idTaken(fields.id)),
      ...claimIdentity(fields.id, fields.name, fields.external_id),
      ...addCounters(fields.id, { [GROUPS_COUNTER]: 1 }),
      ruleGroupsCountWrite(1),
      ...ruleChangeWrites(fields.id, null, setting, now),
      groupAudit(ctx, fields.id, { created: groupRepresentation(created) }, now),
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
  return { ...toGroup(newGroupItem(fields, '', now, { state: 'active', user_count: userCount, version: 1, rule })), generation: '' };
}

const memberWrites = (group: GroupRef, userIds: string[], now: string): Write[] =>
  userIds.flatMap((userId) => [userCheckWrite(userId, now), ...newMembership(group, userId, now)]);

/** Up to `singleTransactionUsers` users: everything in one transaction. */
async function createAtOnce(ctx: ChangeContext, fields: NewGroupFields, userIds: string[]): Promise<StoredGroup> {
  return withFreshRead(async () => {
    const now = new Date().toISOString();
    const item = newGroupItem(fields, newId(), now, { state: 'active', user_count: userIds.length, version: 1 });
    const group = toGroup(item);
    const changes = { created: groupRepresentation(group), ...(userIds.length > 0 ? { added_user_ids: userIds } : {}) };
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

/** More users: pending group, members in chunks, publish; roll back on any failure (see the top of this file). */
async function createInSteps(ctx: ChangeContext, fields: NewGroupFields, userIds: string[]): Promise<StoredGroup> {
  const { pendingLeaseMs, chunkUsers, chunkConcurrency } = groupTuning();
  const started = Date.now();
  const leaseUntil = new Date(started + pendingLeaseMs).toISOString();
  const generation = newId();
  const item = newGroupItem(fields, generation, new Date(started).toISOString(), {
    state: 'pending',
    user_count: 0,
    version: 0,
    lease_until: leaseUntil,
  });
  const ref = { id: fields.id, generation, name: fields.name, external_id: fields.external_id };
  await transactWrite([createGroupWrite(item, () => idTaken(fields.id)), ...claimIdentity(fields.id, fields.name, fields.external_id)]);

  try {
    const chunks: string[][] = [];
    for (let i = 0; i < userIds.length; i += chunkUsers) chunks.push(userIds.slice(i, i + chunkUsers));
    await forEachConcurrently(chunks, chunkConcurrency, async (chunk) => {
      if (Date.now() > started + pendingLeaseMs / 2) throw conflict('Creating the group took too long; retry the request.');
      await withFreshRead(async () => {
        const now = new Date().toISOString();
        await transactWrite([...memberWrites(ref, chunk, now), groupAudit(ctx, fields.id, { added_user_ids: chunk }, now)]);
      });
    });
    await publish(ctx, fields, generation, userIds.length);
  } catch (error) {
    await abandonPendingGroup(ctx, ref, { creation_rolled_back: true }).catch((rollbackError: Error) =>
      log('warn', 'G3 roll-back failed; the sweeper will finish it', { groupId: fields.id, error: rollbackError }),
    );
    throw error;
  }
  const published = await findGroupItem(fields.id);
  return toGroup(published!);
}

async function publish(ctx: ChangeContext, group: NewGroupFields, generation: string, userCount: number): Promise<void> {
  const now = new Date().toISOString();
  await transactWrite([
    publishGroupWrite(group, generation, userCount, now, () =>
      conflict('Creating the group took too long and it was rolled back; retry the request.'),
    ),
    ...addCounters(group.id, { [GROUPS_COUNTER]: 1 }),
    groupAudit(ctx, group.id, { created: { ...group, user_count: userCount } }, now),
  ]);
}
