/**
 * A department: its six quotas (E6) as bars of usage against limit, and its members (its E1 list, filters in the
 * query string, a page at a time). For a token that may write: edit limits (E7), rename (PATCH with the ETag read),
 * add users after a dry-run preview (E3), remove one member (E4) or several (E5), and delete it when empty (E8).
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { asyncHandler } from '../components/async-handler';
import { ChangeResult, StaleReload } from '../components/change-result';
import { ifMatch, withETag, type Versioned } from '../components/etag';
import { useListParams } from '../components/list-params';
import { Busy, ConfirmButton, Pager, QuotaBar, ScreenTitle } from '../components/parts';
import { useChange } from '../components/use-change';
import { useRequest } from '../components/use-request';
import { Field, UserFilters, userListQuery, UserTable } from '../components/user-list';
import { ProblemMessage } from '../problems';
import { useCanWrite } from '../session';
import { AddUsers } from './department-add-users';

type Department = Schemas['Department'];
type Quota = Schemas['Quota'];

export function DepartmentScreen({ params: { id } }: { params: Record<string, string> }) {
  const canWrite = useCanWrite();
  const path = { department_id: id };
  const department = useRequest(() => withETag(api.GET('/v2/departments/{department_id}', { params: { path } })), [id]);
  const quotas = useRequest(() => api.GET('/v2/departments/{department_id}/quotas', { params: { path } }), [id]);
  const [deleted, setDeleted] = useState(false);
  const [membersGeneration, setMembersGeneration] = useState(0);
  /** After a change of members: the counts, the quotas' usage and the list all moved. */
  const membersChanged = () => {
    department.reload();
    quotas.reload();
    setMembersGeneration((n) => n + 1);
  };
  const current = department.data;
  return (
    <>
      <ScreenTitle>{current ? current.value.name : `Department ${id}`}</ScreenTitle>
      <Busy when={department.loading} />
      <ProblemMessage problem={department.problem} />
      {current && (
        <p>
          <code>{current.value.id}</code>: {current.value.user_count} users.
        </p>
      )}
      {current && !deleted && (
        <>
          <section aria-labelledby="quotas">
            <h2 id="quotas">Quotas</h2>
            <Busy when={quotas.loading} />
            <ProblemMessage problem={quotas.problem} />
            {quotas.data?.quotas.map((quota) => (
              <QuotaBar key={quota.name} name={quota.name} usage={quota.usage} limit={quota.limit} />
            ))}
            {quotas.data && <SeatsNote quotas={quotas.data.quotas} />}
            {canWrite && quotas.data && <EditLimits departmentId={id} quotas={quotas.data.quotas} onSaved={quotas.reload} />}
          </section>
          <Members departmentId={id} generation={membersGeneration} canWrite={canWrite} onChanged={membersChanged} />
          {canWrite && <AddUsers departmentId={id} onAdded={membersChanged} />}
          {canWrite && <Rename department={current} reload={department.reload} />}
        </>
      )}
      {canWrite && current && <DeleteDepartment department={current} reload={department.reload} onDeleted={() => setDeleted(true)} />}
    </>
  );
}

function SeatsNote({ quotas }: { quotas: Quota[] }) {
  const seats = quotas.find((quota) => !quota.editable);
  if (!seats) return null;
  return (
    <p class="hint">
      {seats.name} is set for every department by the deployment (its <code>DEPARTMENT_SEATS</code> setting), not here
      {seats.limit === null ? ': this deployment sets none.' : '.'}
    </p>
  );
}

/** E7 for each limit the person changed (empty means no limit). A limit below the usage is accepted: members stay. */
function EditLimits({ departmentId, quotas, onSaved }: { departmentId: string; quotas: Quota[]; onSaved: () => void }) {
  const change = useChange();
  const editable = quotas.filter((quota) => quota.editable);
  return (
    <form
      key={quotas.map((quota) => quota.limit).join()}
      onSubmit={asyncHandler(async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const changed = editable
          .map((quota) => {
            const text = (form.elements.namedItem(quota.name) as HTMLInputElement).value.trim();
            return { quota, limit: text === '' ? null : Number(text) };
          })
          .filter(({ quota, limit }) => limit !== quota.limit);
        const saved = await change.run(
          'Saving limits…',
          async () => {
            let last;
            for (const { quota, limit } of changed) {
              last = await api.PUT('/v2/departments/{department_id}/quotas', {
                params: { path: { department_id: departmentId } },
                body: { name: quota.name, limit },
              });
              if (last.error || !last.response.ok) return last;
            }
            return last ?? { response: new Response(null, { status: 200 }) };
          },
          () => limitsSentence(changed.map(({ quota, limit }) => ({ ...quota, limit }))),
        );
        if (saved) onSaved();
      })}
    >
      <h3>Limits</h3>
      <p class="hint">Empty means no limit. A limit below what is in use is accepted: the members stay, further additions fail.</p>
      <div class="filters">
        {editable.map((quota) => (
          <Field key={quota.name} label={`${quota.name} limit`}>
            <input name={quota.name} type="number" min={0} max={1000000000} step={1} defaultValue={quota.limit?.toString() ?? ''} />
          </Field>
        ))}
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={!!change.busy}>
          Save limits
        </button>
      </div>
      <ChangeResult change={change} />
    </form>
  );
}

function limitsSentence(saved: Quota[]): string {
  if (saved.length === 0) return 'No limit changed.';
  const each = saved.map((quota) => `${quota.name} ${quota.limit ?? 'no limit'}`).join(', ');
  const below = saved.filter((quota) => quota.limit !== null && quota.limit < quota.usage);
  const warning = below.map((quota) => ` ${quota.name} is below its ${quota.usage} in use: they stay, further additions fail.`).join('');
  return `Saved: ${each}.${warning}`;
}

/** The members, E1's filters on this department, a page at a time; remove one (E4) or the selected (E5, all or nothing). */
function Members(props: { departmentId: string; generation: number; canWrite: boolean; onChanged: () => void }) {
  const { departmentId, generation, canWrite, onChanged } = props;
  const list = useListParams(`/departments/${encodeURIComponent(departmentId)}`);
  const members = useRequest(
    () =>
      api.GET('/v2/departments/{department_id}/users', {
        params: { path: { department_id: departmentId }, query: userListQuery(list.params) },
      }),
    [departmentId, list.params.toString(), generation],
  );
  const [selected, setSelected] = useState<string[]>([]);
  const change = useChange();
  const remove = async (userIds: string[]) => {
    const removed = await change.run(
      userIds.length === 1 ? 'Removing the user…' : `Removing ${userIds.length} users…`,
      () =>
        userIds.length === 1
          ? api.DELETE('/v2/departments/{department_id}/users/{user_id}', {
              params: { path: { department_id: departmentId, user_id: userIds[0] } },
            })
          : api.DELETE('/v2/departments/{department_id}/users', {
              params: { path: { department_id: departmentId } },
              body: { user_ids: userIds },
            }),
      () => `Removed ${userIds.length === 1 ? userIds[0] : `${userIds.length} users`} from the department.`,
    );
    if (removed) {
      setSelected([]);
      onChanged();
    }
  };
  const toggle = (id: string, on: boolean) => setSelected((now) => (on ? [...now, id] : now.filter((other) => other !== id)));
  return (
    <section aria-labelledby="members">
      <h2 id="members">Members</h2>
      <UserFilters list={list} withDepartment={false} />
      <Busy when={members.loading} />
      <ProblemMessage problem={members.problem} />
      {members.data && (
        <>
          <UserTable
            users={members.data.users}
            caption="Members"
            action={
              canWrite
                ? {
                    header: 'Remove',
                    cell: (user) => (
                      <div class="row-actions">
                        <label class="check">
                          <input
                            type="checkbox"
                            checked={selected.includes(user.id)}
                            onChange={(event) => toggle(user.id, event.currentTarget.checked)}
                          />
                          <span class="visually-hidden">Select {user.id}</span>
                        </label>
                        <ConfirmButton
                          label={`Remove ${user.id}`}
                          text="Remove"
                          question={`Remove ${user.email} from this department? It stays a user, in no department.`}
                          confirm="Remove"
                          disabled={!!change.busy}
                          onConfirm={() => void remove([user.id])}
                        />
                      </div>
                    ),
                  }
                : undefined
            }
          />
          <Pager
            shown={members.data.count}
            total={members.data.total}
            nextCursor={members.data.next_cursor}
            href={(cursor) => list.href({ cursor })}
            first={!list.params.get('cursor')}
            noun="members"
          />
        </>
      )}
      {canWrite && (
        <div class="actions">
          <ConfirmButton
            label={`Remove the ${selected.length} selected`}
            question={`Remove these ${selected.length} users from the department (all or none)? ${selected.join(', ')}`}
            confirm="Remove them"
            danger
            disabled={selected.length === 0 || !!change.busy}
            onConfirm={() => void remove(selected)}
          />
        </div>
      )}
      <ChangeResult change={change} />
    </section>
  );
}

function Rename({ department, reload }: { department: Versioned<Department>; reload: () => void }) {
  const change = useChange();
  return (
    <section aria-labelledby="rename">
      <h2 id="rename">Rename</h2>
      <form
        class="filters"
        key={department.etag}
        onSubmit={asyncHandler(async (event) => {
          event.preventDefault();
          const name = (event.currentTarget.elements.namedItem('name') as HTMLInputElement).value.trim();
          const renamed = await change.run(
            'Renaming…',
            () =>
              api.PATCH('/v2/departments/{department_id}', {
                params: { path: { department_id: department.value.id }, header: ifMatch(department.etag) },
                body: { name },
              }),
            () => `Renamed to ${name}.`,
          );
          if (renamed) reload();
        })}
      >
        <Field label="Name">
          <input name="name" required maxLength={200} defaultValue={department.value.name} autoComplete="off" />
        </Field>
        <button type="submit" disabled={!!change.busy}>
          Rename
        </button>
      </form>
      <ChangeResult change={change}>
        <StaleReload change={change} reload={reload} />
      </ChangeResult>
    </section>
  );
}

function DeleteDepartment(props: { department: Versioned<Department>; reload: () => void; onDeleted: () => void }) {
  const { department, reload, onDeleted } = props;
  const change = useChange();
  return (
    <section aria-labelledby="delete-department">
      <h2 id="delete-department">Delete</h2>
      {!change.done && (
        <>
          <p class="hint">Only an empty department can be deleted.</p>
          <ConfirmButton
            label="Delete department"
            question={`Delete ${department.value.name}? This cannot be undone.`}
            confirm="Delete"
            danger
            disabled={!!change.busy}
            onConfirm={asyncHandler(async () => {
              const deleted = await change.run(
                'Deleting…',
                () =>
                  api.DELETE('/v2/departments/{department_id}', {
                    params: { path: { department_id: department.value.id }, header: ifMatch(department.etag) },
                  }),
                () => (
                  <>
                    Deleted {department.value.name}. <Link href="/departments">Back to departments</Link>
                  </>
                ),
              );
              if (deleted) onDeleted();
            })}
          />
        </>
      )}
      <ChangeResult change={change}>
        <StaleReload change={change} reload={reload} />
      </ChangeResult>
    </section>
  );
}
