/**
 * How rule groups keep their members: the rule work items (lib/store/rules.ts)
 * and what runs them. A group's work applies its rule (rule-apply.ts); a
 * user's, or a bulk move's users', follows the change (rule-follow.ts). The
 * RuleWorker (functions/ruleWorker.ts) runs each piece as the table's stream
 * delivers it; locally `pollLocally` finds the same items, and the
 * maintenance function runs any left older than a minute.
 *
 * Why work items, and why this converges:
 * - Every change of a user's cell (department, role, activation), whatever
 *   made it (create, PATCH, E2–E5, bulk moves, SCIM), goes through one
 *   writer, lib/store/users.ts userWrites, which writes the user's rule work
 *   in the same transaction: no change can be missed, and the user change
 *   costs one small item more whatever the number of rule groups (none
 *   are read or written by the request). A deleted user leaves every group
 *   in its own deletion, and writes its rule work too: a group held at its
 *   limit may have counted it among its waiting matches.
 * - Each piece of work reconciles what is NOW (the user, the rules, the
 *   members), idempotently, whatever order the pieces come in. Work is
 *   deleted only if not rewritten since it was read (its `stamp`), so a
 *   change during the reconciliation is followed again; work that must wait
 *   (TryAgain) stays and runs again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachConcurrently } from '../db/batch';
import { ContentionError } from '../db/errors';
import { transactWrite } from '../db/transact';
import { log } from '../log';
import {
  announcedRuleWork,
  finishRuleWorkWrite,
  pendingRuleWork,
  readRuleWork,
  WorkRewritten,
  type RuleWork,
  type RuleWorkSubject,
} from '../store/rules';
import { applyGroupRule } from './rule-apply';
import { TryAgain } from './rule-decision';
import { followUser, followUsers } from './rule-follow';

/** Does one piece of work, then deletes it unless it was written again meanwhile. False: to be tried again later. */
export async function runRuleWork(subject: RuleWorkSubject, id: string): Promise<boolean> {
  const work = await readRuleWork(subject, id);
  if (!work) return true;
  try {
    if (subject === 'group') await applyGroupRule(id, work.stamp);
    else if (subject === 'user') await followUser(work);
    else await followUsers(work);
  } catch (error) {
    if (error instanceof TryAgain || error instanceof ContentionError) return false;
    throw error;
  }
  try {
    await transactWrite([finishRuleWorkWrite(work)]);
  } catch (error) {
    if (!(error instanceof WorkRewritten)) throw error;
  }
  return true;
}

/** How long a stream invocation keeps trying work that must wait (a group being changed, contention), a pause between. */
export const PATIENCE_MS = 5_000;

/**
 * Runs the work, and again after a short pause (doubling, at most a second)
 * while it must wait, for at most `patienceMs`: an apply that overlaps a
 * group change or a follow that meets contention usually clears within a
 * second or two. False: still waiting (the caller has it retried later).
 */
export async function runRuleWorkPatiently(subject: RuleWorkSubject, id: string, patienceMs = PATIENCE_MS): Promise<boolean> {
  const deadline = Date.now() + patienceMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    if (await runRuleWork(subject, id)) return true;
    if (Date.now() + pause > deadline) return false;
    await sleep(pause);
  }
}

/** The stream's records, one after the other: each that announces rule work written is run patiently (others are skipped). */
export async function runStreamedRuleWork(newImages: Array<Record<string, { S?: string }> | undefined>): Promise<void> {
  for (const image of newImages) {
    const work = announcedRuleWork(image);
    if (work) await runRuleWorkPatiently(work.subject, work.id);
  }
}

/** Pieces of work run at once by the local poller and the maintenance sweep. */
const RULE_WORK_CONCURRENCY = 32;

/** Work items per run of the local poller (and of the maintenance function's sweep). */
const WORK_PER_RUN = 200;

/** Runs the pending work (written before `until`, when given), a few at a time; answers how many were done. */
export async function runPendingRuleWork(options: { until?: string } = {}): Promise<number> {
  const work = await pendingRuleWork({ until: options.until, limit: WORK_PER_RUN });
  let done = 0;
  await forEachConcurrently(work, RULE_WORK_CONCURRENCY, async ({ subject, id }) => {
    try {
      if (await runRuleWork(subject, id)) done++;
    } catch (error) {
      await log('warn', 'rule work failed; it stays and runs again', { subject, id, error: error as Error });
    }
  });
  return done;
}

/** How long work that must wait rests before the local poller tries it again. */
const REST_MS = 200;
/** The local poller reads the pending work at most this often. */
const READ_EVERY_MS = 50;

/**
 * `npm start`'s poller (functions/ruleWorker.ts pollLocally), closer to the stream: each piece of work starts as
 * soon as one of the slots is free, instead of the whole batch waiting for its slowest (one backing off held back
 * every change written after it). Work that must wait rests before it is tried again. Ends when nothing is in
 * flight and nothing pending is ready, or after `budgetMs` (the work in flight finished); answers how many were done.
 */
export async function runRuleWorkAsItComes(budgetMs = 30_000): Promise<number> {
  const deadline = Date.now() + budgetMs;
  const inFlight = new Map<string, Promise<void>>();
  const restingUntil = new Map<string, number>();
  let done = 0;
  const start = ({ subject, id }: RuleWork, key: string) =>
    (async () => {
      try {
        if (await runRuleWork(subject, id)) done++;
        else restingUntil.set(key, Date.now() + REST_MS);
      } catch (error) {
        restingUntil.set(key, Date.now() + REST_MS);
        await log('warn', 'rule work failed; it stays and runs again', { subject, id, error: error as Error });
      } finally {
        inFlight.delete(key);
      }
    })();
  for (;;) {
    const readAt = Date.now();
    if (readAt < deadline && inFlight.size < RULE_WORK_CONCURRENCY) {
      for (const work of await pendingRuleWork({ limit: WORK_PER_RUN })) {
        if (inFlight.size >= RULE_WORK_CONCURRENCY) break;
        const key = `${work.subject}#${work.id}`;
        if (inFlight.has(key) || (restingUntil.get(key) ?? 0) > Date.now()) continue;
        inFlight.set(key, start(work, key));
      }
    }
    if (inFlight.size === 0) return done;
    await Promise.race([...inFlight.values(), sleep(READ_EVERY_MS)]);
    await sleep(Math.max(0, readAt + READ_EVERY_MS - Date.now()));
  }
}

/** Maintenance: work older than a minute, whose stream delivery failed or whose worker died. */
export const runStaleRuleWork = (now: number): Promise<number> => runPendingRuleWork({ until: new Date(now - 60_000).toISOString() });
