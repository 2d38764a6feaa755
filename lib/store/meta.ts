/**
 * The table's own state: `META` / `LISTS`, which says whether the list
 * indexes and counters of this version are complete for every item (and,
 * while the backfill runs, where it stands), so that a table written by an
 * earlier version is read the old way until then (lib/lists/migration.ts).
 */
import { Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem, putItem, updateItem } from '../db/items';
import type { Item, Key } from '../db/table';
import { LIST_VERSION } from './users';

const listsKey: Key = { pk: 'META', sk: 'LISTS' };

export interface ListsState {
  /** Ready: every item is counted and indexed; the new read paths are trusted. */
  ready: boolean;
  /** Where the backfill stands, by step (an opaque resume point per step). */
  progress: Record<string, unknown>;
  /** The count indexes (lib/db/table.ts COUNT_INDEXES) are ACTIVE: the `user_count` sorts read them. */
  countIndexes: boolean;
  /** The inactive index (lib/db/table.ts) is ACTIVE and lists every deactivated user: lists of them read it. */
  inactiveIndex: boolean;
}

export async function readListsState(consistent = false): Promise<ListsState> {
  const item = await getItem(listsKey, consistent);
  return {
    ready: item?.version === LIST_VERSION && item.state === 'ready',
    progress: item ? attr.readAttribute(item, 'progress', attr.orElse(attr.map, {})) : {},
    countIndexes: item?.count_indexes === 'active',
    inactiveIndex: item?.inactive_index === 'active',
  };
}

/** The state of a new table: nothing to backfill, ready at once. */
export const newTableListsItem = (): Item => ({
  ...listsKey,
  type: 'meta',
  version: LIST_VERSION,
  state: 'ready',
  progress: {},
  count_indexes: 'active',
  inactive_index: 'active',
});

export const markNewTableReady = () => putItem(newTableListsItem());

export async function saveListsProgress(progress: Record<string, unknown>, ready: boolean): Promise<void> {
  await updateItem(
    listsKey,
    new Update().setAll({ type: 'meta', version: LIST_VERSION, state: ready ? 'ready' : 'backfilling', progress }),
  );
}

/** Records that the count indexes are ACTIVE (they stay so: no version removes an index). */
export async function saveCountIndexesActive(): Promise<void> {
  await updateItem(listsKey, new Update().setAll({ type: 'meta', count_indexes: 'active' }));
}

/** Records that the inactive index is ACTIVE and backfilled. */
export async function saveInactiveIndexReady(): Promise<void> {
  await updateItem(listsKey, new Update().setAll({ type: 'meta', inactive_index: 'active' }));
}
