/**
 * E1's users list as the Users screen and a department's members show it: every filter and sort of the API as a form
 * whose values live in the query string, the API request they make, and the table of a page of users.
 */
import { cloneElement, type ComponentChildren, type VNode } from 'preact';
import { useId } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { Schemas } from '../api';
import type { ListParams } from './list-params';
import { Time } from './parts';

/** Users per page: a page is what each list request reads. */
export const USERS_PAGE = 25;

export const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
const SORT_FIELDS = { last_name: 'Last name', account_role: 'Role', activated: 'Activated', last_login: 'Last login' } as const;
type SortField = keyof typeof SORT_FIELDS;
type UserSort = `${SortField}:${'asc' | 'desc'}`;

/** The query of E1 (GET /v2/users, or a department's users) for the list parameters in the address. */
export function userListQuery(params: URLSearchParams) {
  const filters = (['account_role', 'last_name', 'department_id'] as const)
    .filter((name) => params.get(name))
    .map((name) => `${name}:${params.get(name)}`);
  const activated = params.get('activated');
  const onlyActivated: 'true' | 'false' | undefined = activated === 'true' || activated === 'false' ? activated : undefined;
  return {
    count: USERS_PAGE,
    query: filters.join(',') || undefined,
    activated: onlyActivated,
    last_login: params.get('last_login') || undefined,
    sort: (params.get('sort') || undefined) as UserSort | undefined,
    cursor: params.get('cursor') || undefined,
  };
}

/** The form's fields as list parameters: the API's own forms (`since:<date>`, `<field>:<direction>`), defaults left out. */
function filterParams(form: HTMLFormElement): Record<string, string | undefined> {
  const value = (name: string) => {
    const field = form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
    return field?.value.trim() || undefined;
  };
  const login = value('login');
  const loginDate = value('login_date');
  const sortField = value('sort_field') ?? 'last_name';
  const sortDirection = value('sort_direction') ?? 'asc';
  return {
    account_role: value('account_role'),
    last_name: value('last_name'),
    department_id: value('department_id'),
    activated: value('activated'),
    last_login: login === 'never' ? 'never' : login && loginDate ? `${login}:${loginDate}` : undefined,
    sort: sortField === 'last_name' && sortDirection === 'asc' ? undefined : `${sortField}:${sortDirection}`,
    cursor: undefined,
  };
}

/** The filters and sort of E1; applying them navigates to the list's address with them (so back returns to the previous ones). */
export function UserFilters({ list, withDepartment }: { list: ListParams; withDepartment: boolean }) {
  const [, navigate] = useLocation();
  const { params } = list;
  const [login, loginDate] = (params.get('last_login') ?? '').split(/:(.*)/);
  const [sortField, sortDirection] = (params.get('sort') ?? 'last_name:asc').split(':');
  return (
    <form
      class="filters"
      aria-label="Filter and sort users"
      // Keyed by the address: back and forward show the filters of the list on screen.
      key={params.toString()}
      onSubmit={(event) => {
        event.preventDefault();
        navigate(list.href(filterParams(event.currentTarget)));
      }}
    >
      <Field label="Role">
        <Select
          name="account_role"
          initial={params.get('account_role') ?? ''}
          options={[['', 'any'], ...ROLES.map((role) => [role, role] as const)]}
        />
      </Field>
      <Field label="Last name starts with">
        <input name="last_name" defaultValue={params.get('last_name') ?? ''} />
      </Field>
      {withDepartment && (
        <Field label="Department id">
          <input name="department_id" defaultValue={params.get('department_id') ?? ''} />
        </Field>
      )}
      <Field label="Activated">
        <Select
          name="activated"
          initial={params.get('activated') ?? ''}
          options={[
            ['', 'any'],
            ['true', 'yes'],
            ['false', 'no'],
          ]}
        />
      </Field>
      <Field label="Last login">
        <Select
          name="login"
          initial={login}
          options={[
            ['', 'any'],
            ['never', 'never'],
            ['since', 'since'],
            ['before', 'before'],
          ]}
        />
      </Field>
      <Field label="Last login date">
        <input name="login_date" type="date" defaultValue={loginDate ?? ''} />
      </Field>
      <Field label="Sort by">
        <Select name="sort_field" initial={sortField} options={Object.entries(SORT_FIELDS)} />
      </Field>
      <Field label="Direction">
        <Select name="sort_direction" initial={sortDirection} options={DIRECTIONS} />
      </Field>
      <button type="submit">Apply</button>
    </form>
  );
}

/** A labelled field of a form: the label names its one control by id (a wrapping label would add the control's value to its name). */
export function Field({ label, children }: { label: string; children: VNode<{ id?: string }> }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

export const DIRECTIONS = [
  ['asc', 'ascending'],
  ['desc', 'descending'],
] as const;

/**
 * A choice that starts at `initial` (an option's `selected`: a select has no default value, and a `value` prop would
 * put it back on every render, over what the person picked since).
 */
export function Select(props: { name: string; initial: string; options: ReadonlyArray<readonly [string, string]>; id?: string }) {
  return (
    <select id={props.id} name={props.name}>
      {props.options.map(([value, label]) => (
        <option key={value} value={value} selected={value === props.initial}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** A page of users; `action` adds a last cell to each row (a checkbox, a button). */
export function UserTable(props: {
  users: Schemas['User'][];
  caption: string;
  showDepartment?: boolean;
  action?: { header: string; cell: (user: Schemas['User']) => ComponentChildren };
}) {
  const { users, caption, showDepartment, action } = props;
  return (
    // On a phone the table scrolls inside this box, which the keyboard can then reach and scroll too (even with no link in it).
    <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table class="wide">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Activated</th>
            <th scope="col">Last login</th>
            {showDepartment && <th scope="col">Department</th>}
            {action && <th scope="col">{action.header}</th>}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <th scope="row">
                <Link href={`/users/${encodeURIComponent(user.id)}`}>
                  {user.last_name}
                  {user.first_name ? `, ${user.first_name}` : ''}
                </Link>
              </th>
              <td>{user.email}</td>
              <td>{user.account_role}</td>
              <td>{user.activated ? 'yes' : 'no'}</td>
              <td>
                <Time iso={user.last_login} />
              </td>
              {showDepartment && (
                <td>
                  {user.department_id ? (
                    <Link href={`/departments/${encodeURIComponent(user.department_id)}`}>{user.department_id}</Link>
                  ) : (
                    '—'
                  )}
                </td>
              )}
              {action && <td>{action.cell(user)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
