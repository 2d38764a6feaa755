/**
 * What this process knows of the table's migration (lib/lists/migration.ts):
 * whether the list indexes and counters are complete, whether the count
 * indexes the `user_count` sorts read are ACTIVE, and whether the inactive
 * index is ACTIVE and backfilled. Each is read from the table's META item at
 * most every 5 s until it is true; once true it stays so.
 */
import { readListsState, type ListsState } from '../store/meta';

const known = { ready: false, countIndexes: false, inactiveIndex: false };
let checkedAt = 0;

async function check(flag: keyof typeof known): Promise<boolean> {
  if (known[flag] || Date.now() - checkedAt < 5_000) return known[flag];
  const state: ListsState = await readListsState();
  known.ready = state.ready;
  known.countIndexes = state.countIndexes;
  known.inactiveIndex = state.inactiveIndex;
  checkedAt = Date.now();
  return known[flag];
}

/** The user lists read the list indexes and counters (otherwise lib/lists/users/legacy.ts). */
export const listsReady = () => check('ready');

/** The named lists sorted by `user_count` read the count indexes (otherwise every item, sorted in memory). */
export const countListsReady = () => check('countIndexes');

/** Lists of deactivated users by name may read the inactive index (otherwise their cells). */
export const inactiveListReady = () => check('inactiveIndex');

/** Forgets what this process knows of the migration (tests switch tables). */
export function forgetListsState(): void {
  known.ready = false;
  known.countIndexes = false;
  known.inactiveIndex = false;
  checkedAt = 0;
}
