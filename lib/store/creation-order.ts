/**
 * The creation-time order of named items (departments and groups) in the
 * byTime index: `gsi4sk` = `<created_at>#<id>`, so ties go by id.
 */
import { Update } from '../db/expression';
import { updateItem } from '../db/items';
import type { Item } from '../db/table';
import { isConditionFailure } from '../db/transact';
import { KEY_SEPARATOR } from '../text';

export const creationSortKey = (createdAt: string, id: string) => `${createdAt}${KEY_SEPARATOR}${id}`;

/** Gives an item written before the creation-time list its sort key there (once). */
export async function indexCreation(item: Item): Promise<void> {
  const changes = new Update()
    .set('gsi4sk', creationSortKey(String(item.created_at), String(item.id)))
    .whenExists()
    .whenAbsent('gsi4sk');
  await updateItem({ pk: String(item.pk), sk: String(item.sk) }, changes).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
