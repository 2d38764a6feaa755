/**
 * Bringing a table written by the version before the list indexes up to
 * them: a resumable, idempotent backfill the maintenance function runs (and
 * `npm start` on an old data directory), step by step:
 *
 * 1. users: each user item without `lv` gets its list attributes and a
 *    department copy, and is counted by the list counters, in one
 *    transaction conditional on the version read, on no bulk move holding
 *    it and on `lv` still being absent, so that no user is counted twice
 *    whatever runs at the same time (a change by this version counts the
 *    user itself, lib/users/counters.ts, and sets `lv`);
 * 2. departments and groups: their creation-time sort key;
 * 3. audit entries: their per-actor, -operation and -resource partitions;
 * 4. the per-role service counters the cell counters replace are removed;
 *    (with step 1, a user without a user name is given its e-mail as one, and
 *    the claim of it, unless another user has taken that name meanwhile: then
 *    it keeps answering its e-mail as its name, unclaimed, until renamed);
 * 5. ready, once every list index is ACTIVE: from then on the lists read
 *    the new indexes and counters (lib/lists/users/index.ts); until then
 *    they read what every version keeps up to date (legacy.ts);
 * 6. the count indexes (departments and groups by `user_count`): they sort
 *    on the counters every version has kept up to date, so DynamoDB fills
 *    them when they are created and nothing is backfilled; once both are
 *    ACTIVE (a deployed table gains them one deploy at a time) the
 *    `user_count` sorts read them instead of sorting the whole list in
 *    memory (lib/lists/by-count.ts). A table that was ready before they
 *    existed only waits for them;
 * 7. the inactive index (deactivated users by name, sparse): every
 *    deactivated user item of an earlier version — the cells of users with
 *    `activated` false — gets its entry, with its department copy,
 *    conditional on the version read (a change since wrote the entry
 *    itself); once that is done and the index is ACTIVE, the lists of
 *    deactivated users read it. Until then they merge the cells, as before.
 *
 * Each step walks an index partition page by page and saves where it is in
 * the table's META item after every page, so a run stopped anywhere goes on
 * from there; running a step twice changes nothing.
 */
import { forEachConcurrently } from '../db/batch';
import { indexStates } from '../db/items';
import { queryPage, type IndexQuery } from '../db/query';
import { COUNT_INDEXES, INDEXES, indexList, LATER_INDEXES, type Item } from '../db/table';
import { isConditionFailure, transactWrite, type Write } from '../db/transact';
import { ContentionError, StaleReadError } from '../db/errors';
import { auditList, indexOldEntry } from '../store/audit';
import { indexCreation } from '../store/creation-order';
import { departmentList } from '../store/departments';
import { groupList } from '../store/groups';
import { readListsState, saveCountIndexesActive, saveInactiveIndexReady, saveListsProgress } from '../store/meta';
import { removeObsoleteCounters } from '../store/stats';
import { claimFor } from '../store/claims';
import {
  ALL_CELLS,
  cellCode,
  departmentCopyPut,
  inactiveEntryWrites,
  LIST_VERSION,
  listAttributesWrite,
  toStoredUser,
  userLists,
  userNameWrite,
  type StoredUser,
} from '../store/users';
import { addContribution, counterWrites, noDeltas } from '../users/counters';
import { userRepresentation } from '../users/user';

type Step = { name: string; query: IndexQuery; visit: (item: Item) => Promise<void> };

const STEPS: Step[] = [
  { name: 'users-in', query: userLists.all({ membership: 'IN' }, 'name')[0], visit: upgradeUser },
  { name: 'users-out', query: userLists.all({ membership: 'OUT' }, 'name')[0], visit: upgradeUser },
  { name: 'departments', query: departmentList.byName(), visit: indexCreation },
  { name: 'groups', query: groupList.byName(), visit: indexCreation },
  { name: 'audit', query: auditList(), visit: (item) => (item.gsi5pk ? Promise.resolve() : indexOldEntry(item)) },
];

async function upgradeUser(item: Item): Promise<void> {
  await countUser(item);
  await claimUserName(item);
}

/** Claims the e-mail of a user of the previous version as its user name (step 1, see the top of this file). */
async function claimUserName(item: Item): Promise<void> {
  if (item.type !== 'user' || item.user_name !== undefined) return;
  const stored = toStoredUser(item);
  try {
    await transactWrite([
      userNameWrite(stored, stored.version),
      claimFor('user_name', stored.user_name, stored.id, () => new StaleReadError()),
    ]);
  } catch (error) {
    // Changed meanwhile (the change claimed its name), or the name is another user's.
    if (error instanceof StaleReadError || error instanceof ContentionError || isConditionFailure(error)) return;
    throw error;
  }
}

/** Counts one user of the previous version for the lists (see the top of this file). */
async function countUser(item: Item): Promise<void> {
  if (item.lv === LIST_VERSION || item.type !== 'user') return;
  const stored: StoredUser = toStoredUser(item);
  if (stored.bulk_lock) return; // the move rewrites it with its list attributes; a later run sees it
  const user = userRepresentation(stored);
  const deltas = noDeltas();
  addContribution(deltas, user, 1, true, false);
  const writes: Write[] = [
    listAttributesWrite(user, stored.version),
    ...(user.department_id ? [departmentCopyPut({ ...user, department_id: user.department_id })] : []),
    ...counterWrites(deltas, user.id, user.updated_at, () => () => new StaleReadError()),
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    // Changed, held or counted meanwhile: whoever changed it counted it, or a later run will.
    if (error instanceof StaleReadError || error instanceof ContentionError || isConditionFailure(error)) return;
    throw error;
  }
}

/** Step 7: the deactivated users, cell by cell (user items only: the cells of everyone, USERS#ALL). */
const INACTIVE_STEPS: Step[] = ALL_CELLS.filter((cell) => !cell.activated).map((cell) => ({
  name: `inactive-${cellCode(cell)}`,
  query: userLists.cell({ everyone: true }, cell, 'id'),
  visit: listInactiveUser,
}));

/** Puts one deactivated user of an earlier version in the inactive index (step 7). */
async function listInactiveUser(item: Item): Promise<void> {
  if (item.type !== 'user' || item.gsi11pk !== undefined || item.activated !== false) return;
  const stored = toStoredUser(item);
  try {
    await transactWrite(inactiveEntryWrites(userRepresentation(stored), stored.version));
  } catch (error) {
    // Changed meanwhile: the change wrote the entry.
    if (error instanceof ContentionError || isConditionFailure(error)) return;
    throw error;
  }
}

export interface BackfillReport {
  ready: boolean;
  visited: number;
  /** The count indexes are ACTIVE and read (step 6). */
  countIndexes: boolean;
  /** The inactive index is ACTIVE, backfilled and read (step 7). */
  inactiveIndex: boolean;
}

/** The indexes of steps 1–5 (the later ones: steps 6 and 7). */
const LIST_INDEXES = indexList.filter((index) => !LATER_INDEXES.includes(index));

const allActive = (states: Map<string, string>, indexes: typeof indexList) => indexes.every((index) => states.get(index.name) === 'ACTIVE');

/** Step 6: records the count indexes as read once both are ACTIVE; answers whether they are. */
async function activateCountIndexes(states?: Map<string, string>): Promise<boolean> {
  if (!allActive(states ?? (await indexStates()), COUNT_INDEXES)) return false;
  await saveCountIndexesActive();
  return true;
}

/** Step 7: records the inactive index as read once it is ACTIVE and every deactivated user is in it. */
async function activateInactiveIndex(walked: boolean): Promise<boolean> {
  if (!walked || !allActive(await indexStates(), [INDEXES.inactiveByName])) return false;
  await saveInactiveIndexReady();
  return true;
}

/**
 * Walks the steps not done yet, saving where each stands after every page
 * (with the table's state `ready`); stops when `deadline` passes. Answers
 * whether every step is done, and the items visited.
 */
async function runSteps(
  steps: Step[],
  progress: Record<string, unknown>,
  ready: boolean,
  deadline: number,
): Promise<{ done: boolean; visited: number }> {
  let visited = 0;
  for (const step of steps) {
    if (progress[step.name] === 'done') continue;
    let startKey = progress[step.name] as Record<string, unknown> | undefined;
    for (;;) {
      if (Date.now() > deadline) {
        await saveListsProgress(progress, ready);
        return { done: false, visited };
      }
      const page = await queryPage(step.query, { limit: 200, startKey });
      await forEachConcurrently(page.items, 8, step.visit);
      visited += page.items.length;
      startKey = page.next;
      progress[step.name] = startKey ?? 'done';
      await saveListsProgress(progress, ready);
      if (!startKey) break;
    }
  }
  return { done: true, visited };
}

/**
 * Runs the backfill for at most `budgetMs` (a maintenance run has little
 * time; it goes on at the next). Answers whether the table is ready.
 */
export async function backfillLists(budgetMs = 8_000): Promise<BackfillReport> {
  const deadline = Date.now() + budgetMs;
  const state = await readListsState(true);
  const progress = { ...state.progress };
  let visited = 0;
  if (!state.ready) {
    const run = await runSteps(STEPS, progress, false, deadline);
    visited += run.visited;
    const ready = run.done && allActive(await indexStates(), LIST_INDEXES);
    if (run.done) {
      await removeObsoleteCounters();
      await saveListsProgress(progress, ready);
    }
    if (!ready) {
      const countIndexes = state.countIndexes || (run.done && (await activateCountIndexes()));
      return { ready: false, visited, countIndexes, inactiveIndex: false };
    }
  }
  const countIndexes = state.countIndexes || (await activateCountIndexes());
  if (state.inactiveIndex) return { ready: true, visited, countIndexes, inactiveIndex: true };
  const walk = await runSteps(INACTIVE_STEPS, progress, true, deadline);
  visited += walk.visited;
  return { ready: true, visited, countIndexes, inactiveIndex: await activateInactiveIndex(walk.done) };
}
