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

/** A list screen's address with its filters, sort and cursor in the query (the empty ones left out). */
export function listHref(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The query of the address as a plain object (a list screen's filters). */
export function useQueryParams(): Record<string, string | undefined> {
  return Object.fromEntries(new URLSearchParams(useSearch()));
}

export function useListParams(path: string): ListParams {
  const search = useSearch();
  return useMemo(() => {
    const params = new URLSearchParams(search);
    const href = (changes: Record<string, string | undefined> = {}) => {
      return listHref(path, { ...Object.fromEntries(params), ...changes });
    };
    return { params, href };
  }, [search, path]);
}
