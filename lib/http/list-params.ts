/**
 * The list parameters as a client writes them — `sort`, `query`
 * (`attr:value,attr:value`), `activated`, `last_login`, `since`/`before` —
 * parsed into the typed requests of lib/lists, with a 400 naming the
 * parameter for anything unknown.
 */
import type { AuditListRequest } from '../audit/list';
import type { GroupUserListRequest } from '../groups/member-list';
import type { NamedListRequest } from '../lists/named';
import type { SortOrder } from '../lists/order';
import { parseFilter } from '../lists/filter';
import type { LoginFilter, UserListRequest } from '../lists/users';
import { validationError } from '../problems';
import { ID_PATTERN } from '../schemas/common';
import {
  ACCOUNT_ROLES,
  AUDIT_FILTER_ATTRIBUTES,
  GROUP_USER_SORT_FIELDS,
  NAMED_FILTER_ATTRIBUTES,
  NAMED_SORT_FIELDS,
  USER_FILTER_ATTRIBUTES,
  USER_SORT_FIELDS,
  type AccountRole,
} from '../schemas/enums';
import { foldCase } from '../text';

/** `asc|desc`, `<field>` or `<field>:asc|desc`. */
export function parseSort<F extends string>(raw: string | undefined, fields: readonly F[], defaultField: F): SortOrder<F> {
  if (raw === undefined || raw === '') return { field: defaultField, direction: 'asc' };
  if (raw === 'asc' || raw === 'desc') return { field: defaultField, direction: raw };
  const [field, direction = 'asc', ...rest] = raw.split(':');
  if (!fields.includes(field as F)) {
    throw validationError([{ field: 'sort', message: `unknown sort field "${field}"; use one of ${fields.join(', ')}` }]);
  }
  if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
    throw validationError([{ field: 'sort', message: `unknown sort direction "${direction}"; use asc or desc` }]);
  }
  return { field: field as F, direction };
}

/** Case-folded prefixes, without repeats; an empty one is a 400. */
function prefixes(values: string[] | undefined, attribute: string): string[] | undefined {
  if (values?.some((p) => p === '')) throw validationError([{ field: 'query', message: `${attribute} needs a prefix` }]);
  return values && [...new Set(values.map(foldCase))];
}

/** An ISO date or time as `last_login` takes it (then checked as a real time). */
export const LOGIN_TIME = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

function parseLoginTime(raw: string): string | undefined {
  if (!LOGIN_TIME.test(raw)) return undefined;
  const time = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00.000Z` : raw);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** `never` | `since:<ISO date or time>` | `before:<ISO date or time>`. */
function parseLastLogin(raw: string | undefined): LoginFilter | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'never') return { kind: 'never' };
  const match = /^(since|before):(.+)$/.exec(raw);
  const time = match ? parseLoginTime(match[2]) : undefined;
  if (!match || !time) {
    throw validationError([{ field: 'last_login', message: 'must be never, since:<ISO date or time> or before:<ISO date or time>' }]);
  }
  return { kind: match[1] as 'since' | 'before', time };
}

export interface PageQuery {
  count: number;
  offset?: number;
  cursor?: string;
}

/** `offset` or `cursor`, not both (both together → 400). */
function paging(query: PageQuery): { count: number; offset: number; cursor?: string } {
  if (query.cursor !== undefined && query.offset !== undefined) {
    throw validationError([{ field: 'cursor', message: 'give either offset or cursor, not both' }]);
  }
  return { count: query.count, offset: query.offset ?? 0, cursor: query.cursor };
}

/** The E1 parameters, shared by every user list. */
export function userListRequest(
  query: PageQuery & { sort?: string; query?: string; activated?: 'true' | 'false'; last_login?: string },
): UserListRequest {
  const sort = parseSort(query.sort, USER_SORT_FIELDS, 'last_name');
  const filters = parseFilter(query.query, USER_FILTER_ATTRIBUTES);
  const roles = filters.get('account_role');
  for (const role of roles ?? []) {
    if (!ACCOUNT_ROLES.includes(role as AccountRole)) {
      throw validationError([{ field: 'query', message: `account_role must be one of ${ACCOUNT_ROLES.join(', ')}` }]);
    }
  }
  const departmentIds = filters.get('department_id');
  for (const id of departmentIds ?? []) {
    if (!ID_PATTERN.test(id)) throw validationError([{ field: 'query', message: `department_id "${id}" is not a valid id` }]);
  }
  return {
    ...paging(query),
    sort,
    filters: {
      roles: roles && [...new Set(roles as AccountRole[])],
      lastNamePrefixes: prefixes(filters.get('last_name'), 'last_name'),
      departmentIds: departmentIds && [...new Set(departmentIds)],
      activated: query.activated === undefined ? undefined : query.activated === 'true',
      lastLogin: parseLastLogin(query.last_login),
    },
  };
}

/** E1's parameters on a group's users: its filters, and the orders a group's users are listed in (E1's others: 400). */
export function groupUserListRequest(
  query: PageQuery & { sort?: string; query?: string; activated?: 'true' | 'false'; last_login?: string },
): GroupUserListRequest {
  const field = query.sort?.split(':')[0];
  if (field && !(GROUP_USER_SORT_FIELDS as readonly string[]).includes(field) && (USER_SORT_FIELDS as readonly string[]).includes(field)) {
    throw validationError([
      {
        field: 'sort',
        message: `a group's users are not listed by ${field}: they are kept by id; use ${GROUP_USER_SORT_FIELDS.join(' or ')}`,
      },
    ]);
  }
  const { filters, ...paged } = userListRequest({ ...query, sort: undefined });
  return { ...paged, sort: parseSort(query.sort, GROUP_USER_SORT_FIELDS, 'last_name'), filters };
}

/** Departments' and groups' list parameters. */
export function namedListRequest(query: PageQuery & { sort?: string; query?: string }): NamedListRequest {
  const sort = parseSort(query.sort, NAMED_SORT_FIELDS, 'name');
  return {
    ...paging(query),
    sort,
    namePrefixes: prefixes(parseFilter(query.query, NAMED_FILTER_ATTRIBUTES).get('name'), 'name'),
  };
}

export function auditListRequest(query: {
  count: number;
  cursor?: string;
  query?: string;
  since?: string;
  before?: string;
}): AuditListRequest {
  return {
    count: query.count,
    cursor: query.cursor,
    since: query.since,
    before: query.before,
    filters: Object.fromEntries(parseFilter(query.query, AUDIT_FILTER_ATTRIBUTES)),
  };
}
