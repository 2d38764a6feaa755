/**
 * The `Link: <…>; rel="next"` header of a list page (RFC 8288): the same
 * request with the page's `next_cursor` in place of any `offset` or cursor.
 */
export function nextLink(path: string, query: Record<string, string>, nextCursor: string | null): Record<string, string> {
  if (nextCursor === null) return {};
  const { offset: _offset, cursor: _cursor, ...kept } = query;
  const search = new URLSearchParams({ ...kept, cursor: nextCursor });
  return { link: `<${path}?${search.toString()}>; rel="next"` };
}
