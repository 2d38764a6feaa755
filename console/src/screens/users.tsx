/**
 * Users: every filter and sort of E1 over all users (GET /v2/users), kept in the query string, a page at a time by
 * cursor with the API's total; and, for a token that may write, a form that creates a user.
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api';
import { asyncHandler } from '../components/async-handler';
import { ChangeResult } from '../components/change-result';
import { useListParams } from '../components/list-params';
import { Busy, Pager, ScreenTitle } from '../components/parts';
import { useChange } from '../components/use-change';
import { useRequest } from '../components/use-request';
import { Field, ROLES, Select, UserFilters, userListQuery, UserTable } from '../components/user-list';
import { ProblemMessage } from '../problems';
import { useCanWrite } from '../session';

export function Users() {
  const list = useListParams('/users');
  const canWrite = useCanWrite();
  const users = useRequest(() => api.GET('/v2/users', { params: { query: userListQuery(list.params) } }), [list.params.toString()]);
  return (
    <>
      <ScreenTitle>Users</ScreenTitle>
      <UserFilters list={list} withDepartment />
      <Busy when={users.loading} />
      <ProblemMessage problem={users.problem} />
      {users.data && (
        <>
          <UserTable users={users.data.users} caption="Users" showDepartment />
          <Pager
            shown={users.data.count}
            total={users.data.total}
            nextCursor={users.data.next_cursor}
            href={(cursor) => list.href({ cursor })}
            first={!list.params.get('cursor')}
            noun="users"
          />
        </>
      )}
      {canWrite && <CreateUser onCreated={users.reload} />}
    </>
  );
}

function CreateUser({ onCreated }: { onCreated: () => void }) {
  const change = useChange();
  // A new form after each creation (a form's reset would not bring its choices back to their first values).
  const [fresh, setFresh] = useState(0);
  return (
    <section aria-labelledby="create-user">
      <h2 id="create-user">Create a user</h2>
      <form
        key={fresh}
        onSubmit={asyncHandler(async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
          const created = await change.run(
            'Creating the user…',
            () =>
              api.POST('/v2/users', {
                body: {
                  ...(value('id') && { id: value('id') }),
                  email: value('email'),
                  first_name: value('first_name'),
                  last_name: value('last_name'),
                  account_role: value('account_role') as 'member',
                  activated: (form.elements.namedItem('activated') as HTMLInputElement).checked,
                },
              }),
            (user) => (
              <>
                Created <Link href={`/users/${encodeURIComponent(user!.id)}`}>{user!.email}</Link>.
              </>
            ),
          );
          if (created) {
            setFresh((n) => n + 1);
            onCreated();
          }
        })}
      >
        <div class="filters">
          <Field label="E-mail">
            <input name="email" type="email" required autoComplete="off" />
          </Field>
          <Field label="First name">
            <input name="first_name" autoComplete="off" />
          </Field>
          <Field label="Last name">
            <input name="last_name" required autoComplete="off" />
          </Field>
          <Field label="Role">
            <Select name="account_role" initial="member" options={ROLES.map((role) => [role, role] as const)} />
          </Field>
          <Field label="Id (optional)">
            <input name="id" pattern="[A-Za-z0-9_\-]{1,64}" autoComplete="off" />
          </Field>
          <label class="check">
            <input name="activated" type="checkbox" /> Activated
          </label>
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={!!change.busy}>
            Create user
          </button>
        </div>
      </form>
      <ChangeResult change={change} />
    </section>
  );
}
