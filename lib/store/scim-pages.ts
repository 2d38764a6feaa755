/**
 * Where SCIM list pages end. An identity provider pages with `startIndex`
 * alone; a list here pages by cursor. After each page the cursor of the
 * next one is kept for an hour under the position it starts at, so the
 * provider's next request (`startIndex` + `count`) starts there instead of
 * reading and dropping everything before it: every page costs one page.
 *
 * `SCIMPAGE#<list>` / `<startIndex>`, `cursor`, `expires_at` (the table's TTL).
 */
import * as attr from '../db/item-kind';
import { getItem, putItem } from '../db/items';
import { TTL_ATTRIBUTE, type Key } from '../db/table';

const KEEP_SECONDS = 3600;
/** The partition keys of page memos start with this (the only items SCIM's lists may write). */
export const SCIM_PAGE_KEY_PREFIX = 'SCIMPAGE#';

const pageKind = attr.itemKind({
  type: 'scim-page',
  key: (list: string, startIndex: number): Key => ({ pk: `${SCIM_PAGE_KEY_PREFIX}${list}`, sk: String(startIndex) }),
  attributes: { cursor: attr.string, [TTL_ATTRIBUTE]: attr.number },
  indexAttributes: {},
});
const pageKey = pageKind.key;

/** The cursor of the page that starts at `startIndex` of `list`, if one was kept (a consistent read: the page before was just answered). */
export async function keptCursor(list: string, startIndex: number, now = Date.now()): Promise<string | undefined> {
  const item = await getItem(pageKey(list, startIndex));
  const page = item && pageKind.read(item);
  if (!page || page[TTL_ATTRIBUTE] * 1000 < now) return undefined;
  return page.cursor;
}

export async function keepCursor(list: string, startIndex: number, cursor: string, now = Date.now()): Promise<void> {
  await putItem(pageKind.item(pageKey(list, startIndex), { cursor, [TTL_ATTRIBUTE]: Math.floor(now / 1000) + KEEP_SECONDS }));
}
