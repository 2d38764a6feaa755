/**
 * Departments, largest first by default (user_count descending); other sorts and the name prefix in the query
 * string, a page at a time by cursor with the API's total; and, for a token that may write, a form that creates one.
 */
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api';
import { asyncHandler } from '../components/async-handler';
import { ChangeResult } from '../components/change-result';
import { useListParams, type ListParams } from '../components/list-params';
import { Busy, Pager, ScreenTitle, Time } from '../components/parts';
import { useChange } from '../components/use-change';
import { useRequest } from '../components/use-request';
import { DIRECTIONS, Field, Select } from '../components/user-list';
import { ProblemMessage } from '../problems';
import { useCanWrite } from '../session';

const DEPARTMENTS_PAGE = 25;
const DEFAULT_SORT = 'user_count:desc';
const SORT_FIELDS = { user_count: 'Size (users)', name: 'Name', created_at: 'Created' } as const;
type DepartmentSort = `${keyof typeof SORT_FIELDS}:${'asc' | 'desc'}`;

export function Departments() {
  const list = useListParams('/departments');
  const canWrite = useCanWrite();
  const { params } = list;
  const departments = useRequest(
    () =>
      api.GET('/v2/departments', {
        params: {
          query: {
            count: DEPARTMENTS_PAGE,
            sort: (params.get('sort') || DEFAULT_SORT) as DepartmentSort,
            query: params.get('name') ? `name:${params.get('name')}` : undefined,
            cursor: params.get('cursor') || undefined,
          },
        },
      }),
    [params.toString()],
  );
  return (
    <>
      <ScreenTitle>Departments</ScreenTitle>
      <DepartmentFilters list={list} />
      <Busy when={departments.loading} />
      <ProblemMessage problem={departments.problem} />
      {departments.data && (
        <>
          <div class="table-scroll">
            <table>
              <caption>Departments</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Id</th>
                  <th scope="col">Users</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {departments.data.departments.map((department) => (
                  <tr key={department.id}>
                    <th scope="row">
                      <Link href={`/departments/${encodeURIComponent(department.id)}`}>{department.name}</Link>
                    </th>
                    <td>
                      <code>{department.id}</code>
                    </td>
                    <td>{department.user_count}</td>
                    <td>
                      <Time iso={department.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            shown={departments.data.count}
            total={departments.data.total}
            nextCursor={departments.data.next_cursor}
            href={(cursor) => list.href({ cursor })}
            first={!params.get('cursor')}
            noun="departments"
          />
        </>
      )}
      {canWrite && <CreateDepartment onCreated={departments.reload} />}
    </>
  );
}

function DepartmentFilters({ list }: { list: ListParams }) {
  const [, navigate] = useLocation();
  const [field, direction] = (list.params.get('sort') || DEFAULT_SORT).split(':');
  return (
    <form
      class="filters"
      aria-label="Filter and sort departments"
      key={list.params.toString()}
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
        const sort = `${value('sort_field')}:${value('sort_direction')}`;
        navigate(list.href({ name: value('name'), sort: sort === DEFAULT_SORT ? undefined : sort, cursor: undefined }));
      }}
    >
      <Field label="Name starts with">
        <input name="name" defaultValue={list.params.get('name') ?? ''} />
      </Field>
      <Field label="Sort by">
        <Select name="sort_field" initial={field} options={Object.entries(SORT_FIELDS)} />
      </Field>
      <Field label="Direction">
        <Select name="sort_direction" initial={direction} options={DIRECTIONS} />
      </Field>
      <button type="submit">Apply</button>
    </form>
  );
}

function CreateDepartment({ onCreated }: { onCreated: () => void }) {
  const change = useChange();
  return (
    <section aria-labelledby="create-department">
      <h2 id="create-department">Create a department</h2>
      <form
        class="filters"
        onSubmit={asyncHandler(async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
          const created = await change.run(
            'Creating the department…',
            () => api.POST('/v2/departments', { body: { name: value('name'), ...(value('id') && { id: value('id') }) } }),
            (department) => (
              <>
                Created <Link href={`/departments/${encodeURIComponent(department!.id)}`}>{department!.name}</Link>.
              </>
            ),
          );
          if (created) {
            form.reset();
            onCreated();
          }
        })}
      >
        <Field label="Name">
          <input name="name" required maxLength={200} autoComplete="off" />
        </Field>
        <Field label="Id (optional)">
          <input name="id" pattern="[A-Za-z0-9_\-]{1,64}" autoComplete="off" />
        </Field>
        <button type="submit" class="primary" disabled={!!change.busy}>
          Create department
        </button>
      </form>
      <ChangeResult change={change} />
    </section>
  );
}
