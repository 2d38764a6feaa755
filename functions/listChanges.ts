import { readChanges } from '../lib/changes/feed';
import { nextLink } from '../lib/http/link';
import { operation } from '../lib/http/operation';
import { changeFeedQuery } from '../lib/schemas/audit';

/** The change feed, oldest first. */
export const handler = operation('listChanges', { query: changeFeedQuery }, async ({ query, path, rawQuery }) => {
  const page = await readChanges({
    count: query.count,
    cursor: query.cursor,
    since: query.since,
    resourceTypes: query.resource_type,
    excludeActors: query.exclude_actor,
  });
  // The next page is by cursor alone: the cursor holds the place `since` gave, and both together are a 400.
  const { since: _since, ...kept } = rawQuery;
  return { body: page, headers: nextLink(path, kept, page.next_cursor) };
});
