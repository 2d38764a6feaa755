/**
 * A group: its fields (G1) and its members a page at a time by cursor (never all of them); add (G4) and remove (G5)
 * a member; rename or re-describe it (PATCH with the ETag read) and delete it (G6, with the same ETag).
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { Busy, ConfirmButton, Done, Pager, ScreenTitle, Time } from '../components/parts';
import { listHref, useQueryParams } from '../components/list-params';
import { asProblem, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

const MEMBERS_PAGE_SIZE = 25;

/** What a change made, or the problem it met. */
interface Outcome {
  done?: string;
  problem?: Problem;
}

/** The outcome in a sentence; a stale ETag's (412) comes with a Reload button that reads the group again. */
function OutcomeMessage({ outcome, onReload }: { outcome: Outcome; onReload: () => void }) {
  return (
    <>
      <Done>{outcome.done}</Done>
      <ProblemMessage problem={outcome.problem}>
        {outcome.problem?.status === 412 && (
          <button type="button" onClick={onReload}>
            Reload
          </button>
        )}
      </ProblemMessage>
    </>
  );
}

function useGroup(groupId: string) {
  return useRequest(async () => {
    const answer = await api.GET('/v2/groups/{group_id}', { params: { path: { group_id: groupId } } });
    // The ETag sent back as If-Match, so a change made meanwhile by someone else is refused (412), not overwritten.
    return { ...answer, data: answer.data && { group: answer.data, etag: answer.response.headers.get('ETag') ?? undefined } };
  }, [groupId]);
}

function GroupFields({ group }: { group: Schemas['Group'] }) {
  return (
    <dl class="fields">
      <dt>Id</dt>
      <dd>
        <code>{group.id}</code>
      </dd>
      <dt>Description</dt>
      <dd>{group.description || '—'}</dd>
      <dt>External id</dt>
      <dd>{group.external_id ?? '—'}</dd>
      <dt>Members</dt>
      <dd>{group.user_count}</dd>
      <dt>Created</dt>
      <dd>
        <Time iso={group.created_at} />
      </dd>
      <dt>Changed</dt>
      <dd>
        <Time iso={group.updated_at} />
      </dd>
    </dl>
  );
}

/** `reading`: the group is being read again (after a change of members, its ETag changes): saving waits for the new one. */
function EditGroup({
  group,
  etag,
  reading,
  onChanged,
}: {
  group: Schemas['Group'];
  etag?: string;
  reading: boolean;
  onChanged: (outcome: Outcome) => void;
}) {
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const { data, error, response } = await api.PATCH('/v2/groups/{group_id}', {
          params: { path: { group_id: group.id }, header: etag ? { 'If-Match': etag } : {} },
          body: { name: name.trim(), description },
        });
        onChanged(error || !data ? { problem: asProblem(error, response) } : { done: `Saved: the group is now called “${data.name}”.` });
      }}
    >
      <h2>Name and description</h2>
      <label for="group-name">Name</label>
      <input id="group-name" required maxLength={200} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <label for="group-description">Description</label>
      <textarea
        id="group-description"
        maxLength={2000}
        rows={2}
        value={description}
        onInput={(event) => setDescription(event.currentTarget.value)}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={reading}>
          Save
        </button>
      </div>
    </form>
  );
}

function AddMember({ groupId, onAdded }: { groupId: string; onAdded: (outcome: Outcome) => void }) {
  const [userId, setUserId] = useState('');
  return (
    <form
      class="filters"
      onSubmit={async (event) => {
        event.preventDefault();
        const id = userId.trim();
        const { data, error, response } = await api.POST('/v2/groups/{group_id}/users/{user_id}', {
          params: { path: { group_id: groupId, user_id: id } },
        });
        if (!error && data) setUserId('');
        onAdded(
          error || !data ? { problem: asProblem(error, response) } : { done: `Added ${data.first_name} ${data.last_name} (${data.id}).` },
        );
      }}
    >
      <div>
        <label for="add-member">User id to add</label>
        <input id="add-member" required value={userId} onInput={(event) => setUserId(event.currentTarget.value)} />
      </div>
      <button type="submit">Add member</button>
    </form>
  );
}

function Members({
  groupId,
  cursor,
  canWrite,
  onChanged,
}: {
  groupId: string;
  cursor?: string;
  canWrite: boolean;
  onChanged: (outcome: Outcome) => void;
}) {
  const members = useRequest(
    () =>
      api.GET('/v2/groups/{group_id}/users', {
        params: { path: { group_id: groupId }, query: { count: MEMBERS_PAGE_SIZE, cursor } },
      }),
    [groupId, cursor],
  );
  const remove = async (user: Schemas['User']) => {
    const { error, response } = await api.DELETE('/v2/groups/{group_id}/users/{user_id}', {
      params: { path: { group_id: groupId, user_id: user.id } },
    });
    onChanged(
      error || !response.ok
        ? { problem: asProblem(error, response) }
        : { done: `Removed ${user.first_name} ${user.last_name} (${user.id}).` },
    );
    members.reload();
  };
  const base = `/groups/${encodeURIComponent(groupId)}`;
  return (
    <section aria-labelledby="members">
      <h2 id="members">Members</h2>
      {canWrite && <AddMember groupId={groupId} onAdded={(outcome) => (onChanged(outcome), members.reload())} />}
      <Busy when={members.loading} />
      <ProblemMessage problem={members.problem} />
      {members.data && (
        <>
          <div class="table-scroll">
            <table>
              <caption>Members, by last name</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Id</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  {canWrite && <th scope="col">Change</th>}
                </tr>
              </thead>
              <tbody>
                {members.data.users.map((user) => (
                  <tr key={user.id}>
                    <th scope="row">
                      {user.first_name} {user.last_name}
                    </th>
                    <td>
                      <code>{user.id}</code>
                    </td>
                    <td>{user.email}</td>
                    <td>{user.account_role}</td>
                    {canWrite && (
                      <td>
                        <ConfirmButton
                          label={`Remove ${user.id}`}
                          question={`Remove ${user.first_name} ${user.last_name} (${user.id}) from this group? The user stays.`}
                          confirm="Remove"
                          danger
                          onConfirm={() => void remove(user)}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {members.data.users.length === 0 && <p>This group has no members.</p>}
          <Pager
            shown={members.data.count}
            total={members.data.total}
            nextCursor={members.data.next_cursor}
            href={(next) => listHref(base, { cursor: next })}
            first={!cursor}
            noun="members"
          />
        </>
      )}
    </section>
  );
}

export function Group({ params }: { params: Record<string, string> }) {
  const groupId = params.id;
  const canWrite = useCanWrite();
  const { cursor } = useQueryParams();
  const group = useGroup(groupId);
  const [outcome, setOutcome] = useState<Outcome>({});
  const [deleted, setDeleted] = useState(false);
  // A change of members changes the count and the ETag: read the group again after every change.
  const changed = (next: Outcome) => (setOutcome(next), group.reload());
  const reload = () => (setOutcome({}), group.reload());

  if (deleted) {
    return (
      <>
        <ScreenTitle>Group deleted</ScreenTitle>
        <Done>
          The group {groupId} is deleted; its users stay. <Link href="/groups">Back to the groups</Link>
        </Done>
      </>
    );
  }
  const current = group.data?.group;
  return (
    <>
      <ScreenTitle>{current ? `Group: ${current.name}` : 'Group'}</ScreenTitle>
      <p>
        <Link href="/groups">All groups</Link>
      </p>
      <Busy when={group.loading} />
      <ProblemMessage problem={group.problem} />
      <OutcomeMessage outcome={outcome} onReload={reload} />
      {current && (
        <>
          <GroupFields group={current} />
          {canWrite && (
            <>
              {/* Filled again when the name or description changed (saved, or reloaded after someone else's change), not when only the members did. */}
              <EditGroup
                key={`${current.name}\n${current.description}`}
                group={current}
                etag={group.data!.etag}
                reading={group.loading}
                onChanged={changed}
              />
              <div class="actions">
                <ConfirmButton
                  label="Delete this group"
                  question={`Delete the group “${current.name}”? Its ${current.user_count} members stay; only the memberships go.`}
                  confirm="Delete the group"
                  danger
                  disabled={group.loading}
                  onConfirm={async () => {
                    const etag = group.data!.etag;
                    const { error, response } = await api.DELETE('/v2/groups/{group_id}', {
                      params: { path: { group_id: groupId }, header: etag ? { 'If-Match': etag } : {} },
                    });
                    if (error || !response.ok) setOutcome({ problem: asProblem(error, response) });
                    else setDeleted(true);
                  }}
                />
              </div>
            </>
          )}
          <Members groupId={groupId} cursor={cursor} canWrite={canWrite} onChanged={changed} />
        </>
      )}
    </>
  );
}
