/**
 * The user lists of the contract as a plain in-memory model: which users a query
 * matches, in which order, with what total. The list tests compare the
 * service with it.
 */
import type { User } from '../../lib/store/users';

export interface ModelQuery {
  scope: 'all' | 'in' | string;
  roles?: string[];
  prefixes?: string[];
  departments?: string[];
  activated?: boolean;
  lastLogin?: 'never' | `since:${string}` | `before:${string}`;
  sort: 'last_name' | 'account_role' | 'activated' | 'last_login';
  direction: 'asc' | 'desc';
  offset: number;
  count: number;
}

/** Code-point comparison of case-folded text, then id: the order the contract asks for. */
export function compareText(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export function matches(u: User, q: Omit<ModelQuery, 'offset' | 'count' | 'sort' | 'direction'>): boolean {
  if (q.scope === 'in' && !u.department_id) return false;
  if (q.scope !== 'all' && q.scope !== 'in' && u.department_id !== q.scope) return false;
  if (q.roles && !q.roles.includes(u.account_role)) return false;
  if (q.prefixes && !q.prefixes.some((p) => u.last_name.toLowerCase().startsWith(p.toLowerCase()))) return false;
  if (q.departments && !q.departments.includes(u.department_id ?? '')) return false;
  if (q.activated !== undefined && u.activated !== q.activated) return false;
  if (q.lastLogin === 'never' && u.last_login !== null) return false;
  if (q.lastLogin?.startsWith('since:') && !(u.last_login !== null && u.last_login >= new Date(q.lastLogin.slice(6)).toISOString()))
    return false;
  if (q.lastLogin?.startsWith('before:') && !(u.last_login !== null && u.last_login < new Date(q.lastLogin.slice(7)).toISOString()))
    return false;
  return true;
}

/** The order of a query: its field in its direction, ties by id ascending. */
export function orderOf(q: Pick<ModelQuery, 'sort' | 'direction'>): (a: User, b: User) => number {
  const sign = q.direction === 'desc' ? -1 : 1;
  const field = (a: User, b: User): number => {
    switch (q.sort) {
      case 'last_name':
        return compareText(a.last_name.toLowerCase(), b.last_name.toLowerCase());
      case 'account_role':
        return compareText(a.account_role, b.account_role);
      case 'activated':
        return Number(a.activated) - Number(b.activated);
      case 'last_login':
        return a.last_login === b.last_login
          ? 0
          : a.last_login === null
            ? -1
            : b.last_login === null
              ? 1
              : compareText(a.last_login, b.last_login);
    }
  };
  return (a, b) => sign * field(a, b) || compareText(a.id, b.id);
}

export function modelList(users: User[], q: ModelQuery): { ids: string[]; total: number } {
  const matching = users.filter((u) => matches(u, q)).sort(orderOf(q));
  return { ids: matching.slice(q.offset, q.offset + q.count).map((u) => u.id), total: matching.length };
}

/** The request of a query (without offset when `cursor` is given). */
export function toPath(q: ModelQuery, cursor?: string): string {
  const base = q.scope === 'all' ? '/v2/users' : q.scope === 'in' ? '/v2/departments/users' : `/v2/departments/${q.scope}/users`;
  const params = new URLSearchParams({ count: String(q.count), sort: `${q.sort}:${q.direction}` });
  if (cursor === undefined) params.set('offset', String(q.offset));
  else params.set('cursor', cursor);
  const filters = [
    ...(q.roles ?? []).map((r) => `account_role:${r}`),
    ...(q.prefixes ?? []).map((p) => `last_name:${p}`),
    ...(q.departments ?? []).map((d) => `department_id:${d}`),
  ];
  if (filters.length > 0) params.set('query', filters.join(','));
  if (q.activated !== undefined) params.set('activated', String(q.activated));
  if (q.lastLogin) params.set('last_login', q.lastLogin);
  return `${base}?${params}`;
}
