/**
 * The creation-time order of named items (departments and groups) in the
 * byTime index: `gsi4sk` = `<created_at>#<id>`, so ties go by id.
 */
import { Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { updateItem } from '../db/items';
import type { Item } from '../db/table';
import { isConditionFailure } from '../db/transact';
import { KEY_SEPARATOR } from '../text';

export const creationSortKey = (createdAt: string, id: string) => `${createdAt}${KEY_SEPARATOR}${id}`;

/** Gives an item written before the creation-time list its sort key there (once). */
export async function indexCreation(item: Item): Promise<void> {
  const createdAt = attr.readAttribute(item, 'created_at', attr.string);
  const changes = new Update()
    .set('gsi4sk', creationSortKey(createdAt, attr.readAttribute(item, 'id', attr.string)))
    .whenExists()
    .whenAbsent('gsi4sk');
  await updateItem(attr.keyOf(item), changes).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
