/**
 * A user: its fields; for a token that may write, edit (PATCH with the ETag read), activate or deactivate, move to a
 * department (E2) or out of it (E4), and delete. Each change reloads the user, so the next one sends its new ETag.
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import type { operations } from '../api/schema';
import { asyncHandler } from '../components/async-handler';
import { ChangeResult, StaleReload } from '../components/change-result';
import { ifMatch, withETag, type Versioned } from '../components/etag';
import { Busy, ConfirmButton, ScreenTitle, Time } from '../components/parts';
import { useChange } from '../components/use-change';
import { useRequest } from '../components/use-request';
import { Field, ROLES, Select } from '../components/user-list';
import { ProblemMessage } from '../problems';
import { useCanWrite } from '../session';

type User = Schemas['User'];
type UserChanges = operations['updateUser']['requestBody']['content']['application/json'];

export function UserScreen({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const canWrite = useCanWrite();
  const user = useRequest(() => withETag(api.GET('/v2/users/{user_id}', { params: { path: { user_id: id } } })), [id]);
  const [deleted, setDeleted] = useState(false);
  const current = user.data;
  return (
    <>
      <ScreenTitle>{current ? fullName(current.value) : `User ${id}`}</ScreenTitle>
      <Busy when={user.loading} />
      <ProblemMessage problem={user.problem} />
      {current && !deleted && (
        <>
          <UserFields user={current.value} />
          {canWrite && <EditUser user={current} reload={user.reload} />}
          <Membership user={current} reload={user.reload} readOnly={!canWrite} />
        </>
      )}
      {canWrite && current && <DeleteUser user={current} reload={user.reload} onDeleted={() => setDeleted(true)} />}
    </>
  );
}

const fullName = (user: User) => (user.first_name ? `${user.first_name} ${user.last_name}` : user.last_name);

function UserFields({ user }: { user: User }) {
  return (
    <dl class="fields">
      <dt>Id</dt>
      <dd>
        <code>{user.id}</code>
      </dd>
      <dt>E-mail</dt>
      <dd>{user.email}</dd>
      <dt>User name</dt>
      <dd>{user.user_name}</dd>
      <dt>External id</dt>
      <dd>{user.external_id ?? '—'}</dd>
      <dt>Role</dt>
      <dd>{user.account_role}</dd>
      <dt>Activated</dt>
      <dd>{user.activated ? 'yes' : 'no'}</dd>
      <dt>Last login</dt>
      <dd>
        <Time iso={user.last_login} />
      </dd>
      <dt>Department</dt>
      <dd>
        {user.department_id ? <Link href={`/departments/${encodeURIComponent(user.department_id)}`}>{user.department_id}</Link> : 'none'}
      </dd>
      <dt>Created</dt>
      <dd>
        <Time iso={user.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time iso={user.updated_at} />
      </dd>
    </dl>
  );
}

function EditUser({ user, reload }: { user: Versioned<User>; reload: () => void }) {
  const change = useChange();
  const { value } = user;
  const patch = (body: UserChanges, busy: string, done: string) =>
    change
      .run(
        busy,
        () => api.PATCH('/v2/users/{user_id}', { params: { path: { user_id: value.id }, header: ifMatch(user.etag) }, body }),
        () => done,
      )
      .then((changed) => changed && reload());
  return (
    <section aria-labelledby="edit-user">
      <h2 id="edit-user">Edit</h2>
      <form
        key={user.etag}
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
          void patch(
            {
              email: field('email'),
              first_name: field('first_name'),
              last_name: field('last_name'),
              user_name: field('user_name'),
              external_id: field('external_id') || null,
              account_role: field('account_role') as User['account_role'],
            },
            'Saving…',
            'Saved.',
          );
        }}
      >
        <div class="filters">
          <Field label="E-mail">
            <input name="email" type="email" required defaultValue={value.email} autoComplete="off" />
          </Field>
          <Field label="First name">
            <input name="first_name" defaultValue={value.first_name} autoComplete="off" />
          </Field>
          <Field label="Last name">
            <input name="last_name" required defaultValue={value.last_name} autoComplete="off" />
          </Field>
          <Field label="User name">
            <input name="user_name" required defaultValue={value.user_name} autoComplete="off" />
          </Field>
          <Field label="External id">
            <input name="external_id" defaultValue={value.external_id ?? ''} autoComplete="off" />
          </Field>
          <Field label="Role">
            <Select name="account_role" initial={value.account_role} options={ROLES.map((role) => [role, role] as const)} />
          </Field>
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={!!change.busy}>
            Save changes
          </button>
          <button
            type="button"
            disabled={!!change.busy}
            onClick={() =>
              void patch(
                { activated: !value.activated },
                value.activated ? 'Deactivating…' : 'Activating…',
                value.activated ? 'Deactivated.' : 'Activated.',
              )
            }
          >
            {value.activated ? 'Deactivate' : 'Activate'}
          </button>
        </div>
      </form>
      <ChangeResult change={change}>
        <StaleReload change={change} reload={reload} />
      </ChangeResult>
    </section>
  );
}

/** The user's department: move it to another (E2: out of its current one in the same step) or out of any (E4). */
function Membership({ user, reload, readOnly }: { user: Versioned<User>; reload: () => void; readOnly?: boolean }) {
  const change = useChange();
  const { id, department_id: departmentId } = user.value;
  return (
    <section aria-labelledby="user-department">
      <h2 id="user-department">Department and groups</h2>
      <p>
        {departmentId ? (
          <>
            In <Link href={`/departments/${encodeURIComponent(departmentId)}`}>{departmentId}</Link>.
          </>
        ) : (
          'In no department.'
        )}
      </p>
      <p class="hint">The API lists a group's members, not a user's groups: see each group's members under Groups.</p>
      {!readOnly && (
        <>
          <form
            class="filters"
            onSubmit={asyncHandler(async (event) => {
              event.preventDefault();
              const target = (event.currentTarget.elements.namedItem('department') as HTMLInputElement).value.trim();
              const moved = await change.run(
                'Moving…',
                () =>
                  api.POST('/v2/departments/{department_id}/users/{user_id}', { params: { path: { department_id: target, user_id: id } } }),
                () => `Now in ${target}.`,
              );
              if (moved) reload();
            })}
          >
            <Field label="Move to department (id)">
              <input name="department" required autoComplete="off" />
            </Field>
            <button type="submit" disabled={!!change.busy}>
              Move
            </button>
          </form>
          {departmentId && (
            <div class="actions">
              <ConfirmButton
                label="Remove from department"
                question={`Remove this user from ${departmentId}? It stays a user, in no department.`}
                confirm="Remove"
                disabled={!!change.busy}
                onConfirm={asyncHandler(async () => {
                  const removed = await change.run(
                    'Removing…',
                    () =>
                      api.DELETE('/v2/departments/{department_id}/users/{user_id}', {
                        params: { path: { department_id: departmentId, user_id: id } },
                      }),
                    () => `Removed from ${departmentId}.`,
                  );
                  if (removed) reload();
                })}
              />
            </div>
          )}
          <ChangeResult change={change} />
        </>
      )}
    </section>
  );
}

function DeleteUser(props: { user: Versioned<User>; reload: () => void; onDeleted: () => void }) {
  const { user, reload, onDeleted } = props;
  const change = useChange();
  return (
    <section aria-labelledby="delete-user">
      <h2 id="delete-user">Delete</h2>
      {!change.done && (
        <ConfirmButton
          label="Delete user"
          question={`Delete ${user.value.email}? It leaves its department and its groups. This cannot be undone.`}
          confirm="Delete"
          danger
          disabled={!!change.busy}
          onConfirm={asyncHandler(async () => {
            const deleted = await change.run(
              'Deleting…',
              () => api.DELETE('/v2/users/{user_id}', { params: { path: { user_id: user.value.id }, header: ifMatch(user.etag) } }),
              () => (
                <>
                  Deleted {user.value.email}. <Link href="/users">Back to users</Link>
                </>
              ),
            );
            if (deleted) onDeleted();
          })}
        />
      )}
      <ChangeResult change={change}>
        <StaleReload change={change} reload={reload} />
      </ChangeResult>
    </section>
  );
}
