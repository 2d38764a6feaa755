/**
 * Applying a rule (a change of it, or room at its limit): the members of the
 * group become exactly its matches. Run by the RuleWorker for a group's rule
 * work (rule-work.ts).
 *
 * It reads the matching users cell by cell from the cell index (cellById:
 * never a scan) and the members, checks the difference against consistent
 * reads of those users (the index may lag behind a change just made), and
 * writes only the joins and leaves, by the bulk protocol of large group
 * changes (bulk-change.ts: prepared out of sight, committed once under the
 * rule version, applied in parts, healed by the maintenance function). It
 * always verifies once more, INDEX_SETTLE_MS later (reading again,
 * consistently, the users it just added or removed), and marks the group
 * `current` (or `over_limit`) conditional on nothing having changed since
 * that verification. An index lagging more than that behind a change made
 * before the apply is not caught by the apply (DynamoDB bounds no GSI lag; it
 * is usually well under a second).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachConcurrently } from '../db/batch';
import { ContentionError, isSignal, signal, StaleReadError } from '../db/errors';
import { queryStream } from '../db/query';
import { transactWrite } from '../db/transact';
import { Problem } from '../problems';
import { findGroupItem, isChanging, isPublished, isRuleManaged, ruleStatusWrite, toGroup, type StoredGroup } from '../store/groups';
import { memberIds } from '../store/memberships';
import { findUsers, userLists } from '../store/users';
import { changeGroupMembersInParts } from './bulk-change';
import { MissingUserError } from './members';
import { cellsOf, matchesRule, parseRule, type Rule } from './rule';
import { ruleAudit, ruleContext, TryAgain } from './rule-decision';
import { ruleMaxUsers } from './rule-limits';
import { cellOfCode, codesOf } from './rule-preview';

/** Queries of the cell index at once (a rule of 40 departments and many kinds is hundreds of cells). */
const INDEX_QUERY_CONCURRENCY = 16;

/** The ids of the users a rule matches, cell by cell from cellById (a department's copies, or everybody's user items). */
async function matchingUserIds(rule: Rule): Promise<string[]> {
  const queries = cellsOf(rule).flatMap((set) =>
    set.kinds
      .flatMap(codesOf)
      .flatMap((code) =>
        'only' in set.scope
          ? set.scope.only.map((department) => userLists.cell({ department }, cellOfCode(code), 'id'))
          : [userLists.cell({ everyone: true }, cellOfCode(code), 'id')],
      ),
  );
  const ids: string[] = [];
  await forEachConcurrently(queries, INDEX_QUERY_CONCURRENCY, async (query) => {
    for await (const item of queryStream({ ...query, attributes: ['id'] }, { pageSize: 1000 })) ids.push(String(item.id));
  });
  return ids;
}

/** Time for the index to show a change just made, before the verifying pass. */
const INDEX_SETTLE_MS = 500;
const APPLY_PASSES = 6;
/** Waiting matches read beyond the room they could fill: a few may have stopped matching since the index saw them. */
const FRESH_READ_MARGIN = 10;

/**
 * The first `room` of the waiting matches by id that match as they are now
 * (consistent reads, a chunk at a time, never all of a rule that matches
 * far more than the limit), and whether more would join than fit.
 */
async function firstMatchingNow(rule: Rule, waiting: string[], room: number): Promise<{ adds: string[]; overLimit: boolean }> {
  const adds: string[] = [];
  for (let from = 0; from < waiting.length;) {
    const chunk = waiting.slice(from, from + Math.max(0, room - adds.length) + 1 + FRESH_READ_MARGIN);
    from += chunk.length;
    const fresh = await findUsers(chunk);
    for (const id of chunk) {
      const user = fresh.get(id);
      if (!user || !matchesRule(rule, user)) continue;
      if (adds.length >= room) return { adds, overLimit: true };
      adds.push(id);
    }
  }
  return { adds, overLimit: false };
}

/**
 * Makes the members of a rule group exactly its matches (the first
 * `ruleMaxUsers` of them by id when they are more: `over_limit`). Answers
 * when the group is `current` or `over_limit`, has no rule, or is gone.
 *
 * The cell index is eventually consistent: each candidate it gives is read
 * again (consistent), and so are the users the previous pass added or
 * removed, which the index may still show as they were. The group is marked
 * only by a pass that found nothing to change and read the index at least
 * INDEX_SETTLE_MS after the apply began or last wrote (the verifying pass,
 * always run). A user change the index shows later than that is not seen
 * here; its own rule work follows it, and waits while the group is
 * `applying` (followUser).
 */
export async function applyGroupRule(groupId: string, requestId: string): Promise<void> {
  let changedLastPass: string[] = [];
  let verifying = false;
  for (let pass = 0; pass < APPLY_PASSES; pass++) {
    const item = await findGroupItem(groupId);
    if (!isPublished(item) || !isRuleManaged(item)) return;
    if (isChanging(item)) {
      await sleep(200 * (pass + 1)); // a large change (of this rule's previous pass, say) is being applied
      continue;
    }
    const group = toGroup(item);
    const rule = parseRule(group.rule!);
    const [matches, members] = await Promise.all([matchingUserIds(rule), memberIds(group)]);
    const [matching, present, changed] = [new Set(matches), new Set(members), new Set(changedLastPass)];
    // Members the index no longer lists, and those just changed: each as it is now decides.
    const doubtful = members.filter((id) => !matching.has(id) || changed.has(id));
    const fresh = await findUsers(doubtful);
    // A member gone from the table is being deleted, which takes it out of its groups.
    const removes = doubtful.filter((id) => fresh.has(id) && !matchesRule(rule, fresh.get(id)!));
    const waiting = [...new Set([...matches, ...changedLastPass])].filter((id) => !present.has(id)).sort();
    const room = ruleMaxUsers() - (group.user_count - removes.length);
    const { adds, overLimit } = await firstMatchingNow(rule, waiting, room);
    if (adds.length === 0 && removes.length === 0) {
      if (verifying && (await settle(group, overLimit, requestId, matching.size))) return;
      if (!verifying) await sleep(INDEX_SETTLE_MS);
      verifying = true;
      changedLastPass = [];
      continue;
    }
    try {
      await changeGroupMembersInParts(ruleContext(groupId, 'applyGroupRule', requestId), {
        group,
        adds,
        removes,
        ruleVersion: group.rule_version,
        maxUsers: ruleMaxUsers(),
      });
    } catch (error) {
      // Read again: a member change or a new rule came first, or a user vanished.
      if (!(error instanceof StaleReadError || error instanceof MissingUserError || error instanceof Problem)) throw error;
    }
    changedLastPass = [...adds, ...removes];
    verifying = true;
    await sleep(INDEX_SETTLE_MS);
  }
  throw new TryAgain();
}

/** Marks the group as its last verification found it, if nothing changed since (false: verify again). */
async function settle(group: StoredGroup, overLimit: boolean, requestId: string, matching: number): Promise<boolean> {
  const status = overLimit ? 'over_limit' : 'current';
  if (group.rule_status === status) return true;
  const now = new Date().toISOString();
  try {
    await transactWrite([
      ruleStatusWrite(group.id, status, { ruleVersion: group.rule_version!, version: group.version }, now, () => signal('changed')),
      ...(overLimit || group.rule_status === 'over_limit'
        ? [ruleAudit(group.id, 'applyGroupRule', requestId, { rule_status: { from: group.rule_status, to: status }, matching }, now)]
        : []),
    ]);
    return true;
  } catch (error) {
    if (isSignal(error, 'changed') || error instanceof ContentionError) return false;
    throw error;
  }
}
