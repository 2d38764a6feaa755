/**
 * A list's parameters as they live in the query string (filters, sort, cursor): read them, and make the address of
 * the same list with some of them changed (a new filter starts again at the first page: it drops the cursor).
 */
import { useMemo } from 'preact/hooks';
import { useSearch } from 'wouter-preact';

export interface ListParams {
  params: URLSearchParams;
  /** The address of this list with `changes` (an empty or undefined value removes the parameter). */
  href: (changes?: Record<string, string | undefined>) => string;
}

export function useListParams(path: string): ListParams {
  const search = useSearch();
  return useMemo(() => {
    const params = new URLSearchParams(search);
    const href = (changes: Record<string, string | undefined> = {}) => {
      const next = new URLSearchParams(params);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      const query = next.toString();
      return query ? `${path}?${query}` : path;
    };
    return { params, href };
  }, [search, path]);
}
