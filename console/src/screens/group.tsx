/**
 * A group: its fields (G1) and its members a page at a time by cursor (never all of them); add (G4) and remove (G5)
 * a member; rename or re-describe it (PATCH with the ETag read) and delete it (G6, with the same ETag). A rule group
 * shows its rule and status, and its members have no add or remove (the API refuses them: 409 rule-managed); setting,
 * changing or turning off a rule is a PATCH, a new rule previewed first (dry run: who would join and leave). While a
 * rule is applying, the page reads the group again every second until it is done.
 */
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { asyncHandler } from '../components/async-handler';
import { Busy, ConfirmButton, Done, Pager, ScreenTitle, Time } from '../components/parts';
import { listHref, useQueryParams } from '../components/list-params';
import { RULE_STATUS, RuleInput, RulePreviewView } from '../components/rule';
import { asProblem, unreachable, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

const MEMBERS_PAGE_SIZE = 25;
/** How often an applying rule's group is read again: its joins and leaves take seconds. */
const APPLYING_POLL_MS = 1000;

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
      <dt>Members kept</dt>
      <dd>
        {group.rule ? (
          <>
            by the rule <code>{group.rule}</code>
          </>
        ) : (
          'by hand'
        )}
      </dd>
      {group.rule_status && (
        <>
          <dt>Rule status</dt>
          <dd>{RULE_STATUS[group.rule_status].sentence}</dd>
        </>
      )}
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
      onSubmit={asyncHandler(
        async (event) => {
          event.preventDefault();
          const { data, error, response } = await api.PATCH('/v2/groups/{group_id}', {
            params: { path: { group_id: group.id }, header: etag ? { 'If-Match': etag } : {} },
            body: { name: name.trim(), description },
          });
          onChanged(error || !data ? { problem: asProblem(error, response) } : { done: `Saved: the group is now called “${data.name}”.` });
        },
        (error) => onChanged({ problem: unreachable(error) }),
      )}
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

const joinsAndLeaves = ({ joining, leaving }: { joining: number; leaving: number }) =>
  `${joining} ${joining === 1 ? 'user joins' : 'users join'} and ${leaving} ${leaving === 1 ? 'leaves' : 'leave'}`;

/** `rule` (a string) saves it; null turns the group's rule off (its members stay). */
async function patchRule(groupId: string, etag: string | undefined, rule: string | null, dryRun: boolean) {
  return api.PATCH('/v2/groups/{group_id}', {
    params: { path: { group_id: groupId }, query: dryRun ? { dry_run: 'true' } : {}, header: etag ? { 'If-Match': etag } : {} },
    body: { rule },
  });
}

/**
 * Set, change or turn off the group's rule. A rule is saved only as previewed: editing it again asks for a new
 * preview, so what the person saw is what is saved.
 */
function EditRule({
  group,
  etag,
  reading,
  onChanged,
  onReload,
}: {
  group: Schemas['Group'];
  etag?: string;
  reading: boolean;
  onChanged: (outcome: Outcome) => void;
  onReload: () => void;
}) {
  const [rule, setRule] = useState(group.rule ?? '');
  const [preview, setPreview] = useState<{ rule: string; result: NonNullable<Schemas['Group']['rule_preview']> }>();
  const [problem, setProblem] = useState<Problem>();
  const saveLabel = group.rule ? 'Save the rule' : 'Keep the members by this rule';
  return (
    <section aria-labelledby="rule">
      <h2 id="rule">Rule</h2>
      <form
        onSubmit={asyncHandler(
          async (event) => {
            event.preventDefault();
            setProblem(undefined);
            setPreview(undefined);
            const text = rule.trim();
            const { data, error, response } = await patchRule(group.id, etag, text, true);
            if (error || !data?.rule_preview) return setProblem(asProblem(error, response));
            setPreview({ rule: text, result: data.rule_preview });
          },
          (error) => setProblem(unreachable(error)),
        )}
      >
        <RuleInput
          id="group-rule"
          required
          value={rule}
          onInput={(value) => {
            setRule(value);
            setPreview(undefined);
          }}
        />
        <div class="actions">
          <button type="submit">Preview</button>
          {preview && (
            <button
              type="button"
              class="primary"
              disabled={reading}
              onClick={asyncHandler(
                async () => {
                  const { data, error, response } = await patchRule(group.id, etag, preview.rule, false);
                  setPreview(undefined);
                  onChanged(
                    error || !data
                      ? { problem: asProblem(error, response) }
                      : { done: `Saved the rule: ${joinsAndLeaves(preview.result)} as it is applied.` },
                  );
                },
                (error) => onChanged({ problem: unreachable(error) }),
              )}
            >
              {saveLabel}
            </button>
          )}
        </div>
      </form>
      {group.rule && (
        <div class="actions">
          <ConfirmButton
            label="Turn off the rule"
            question={`Turn off the rule of “${group.name}”? Its ${group.user_count} members stay, and from then on they are changed by hand.`}
            confirm="Turn it off"
            disabled={reading}
            onConfirm={asyncHandler(
              async () => {
                const { data, error, response } = await patchRule(group.id, etag, null, false);
                onChanged(
                  error || !data
                    ? { problem: asProblem(error, response) }
                    : { done: `Turned off the rule: the ${data.user_count} members stay and are now changed by hand.` },
                );
              },
              (error) => onChanged({ problem: unreachable(error) }),
            )}
          />
        </div>
      )}
      <ProblemMessage problem={problem}>
        {problem?.status === 412 && (
          <button type="button" onClick={() => (setProblem(undefined), onReload())}>
            Reload
          </button>
        )}
      </ProblemMessage>
      {preview && <RulePreviewView preview={preview.result} saveLabel={saveLabel} />}
    </section>
  );
}

/** While the group's rule is applying, reads it every second (quietly) and calls `onDone` once it no longer is. */
function useApplyingWatch(groupId: string, applying: boolean, onDone: () => void) {
  useEffect(() => {
    if (!applying) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const check = async () => {
      const { data } = await api.GET('/v2/groups/{group_id}', { params: { path: { group_id: groupId } } });
      if (stopped) return;
      if (data && data.rule_status !== 'applying') onDone();
      else timer = setTimeout(() => void check(), APPLYING_POLL_MS);
    };
    timer = setTimeout(() => void check(), APPLYING_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [groupId, applying, onDone]);
}

function AddMember({ groupId, onAdded }: { groupId: string; onAdded: (outcome: Outcome) => void }) {
  const [userId, setUserId] = useState('');
  return (
    <form
      class="filters"
      onSubmit={asyncHandler(
        async (event) => {
          event.preventDefault();
          const id = userId.trim();
          const { data, error, response } = await api.POST('/v2/groups/{group_id}/users/{user_id}', {
            params: { path: { group_id: groupId, user_id: id } },
          });
          if (!error && data) setUserId('');
          onAdded(
            error || !data ? { problem: asProblem(error, response) } : { done: `Added ${data.first_name} ${data.last_name} (${data.id}).` },
          );
        },
        (error) => onAdded({ problem: unreachable(error) }),
      )}
    >
      <div>
        <label for="add-member">User id to add</label>
        <input id="add-member" required value={userId} onInput={(event) => setUserId(event.currentTarget.value)} />
      </div>
      <button type="submit">Add member</button>
    </form>
  );
}

/** `canChange`: members may be added and removed by hand (a token that may write, a group without a rule). `version` reads them again when it changes. */
function Members({
  groupId,
  cursor,
  canChange,
  version,
  onChanged,
}: {
  groupId: string;
  cursor?: string;
  canChange: boolean;
  version: string;
  onChanged: (outcome: Outcome) => void;
}) {
  const members = useRequest(
    () =>
      api.GET('/v2/groups/{group_id}/users', {
        params: { path: { group_id: groupId }, query: { count: MEMBERS_PAGE_SIZE, cursor } },
      }),
    [groupId, cursor, version],
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
      {canChange && <AddMember groupId={groupId} onAdded={(outcome) => (onChanged(outcome), members.reload())} />}
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
                  {canChange && <th scope="col">Change</th>}
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
                    {canChange && (
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
  const current = group.data?.group;
  useApplyingWatch(groupId, current?.rule_status === 'applying', group.reload);

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
          <Busy when={current.rule_status === 'applying'}>Applying the rule: the members follow in a moment.</Busy>
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
              {/* Filled again with the rule as saved (or as someone else changed it). */}
              <EditRule
                key={current.rule ?? ''}
                group={current}
                etag={group.data!.etag}
                reading={group.loading}
                onChanged={changed}
                onReload={reload}
              />
              <div class="actions">
                <ConfirmButton
                  label="Delete this group"
                  question={`Delete the group “${current.name}”? Its ${current.user_count} members stay; only the memberships go.`}
                  confirm="Delete the group"
                  danger
                  disabled={group.loading}
                  onConfirm={asyncHandler(
                    async () => {
                      const etag = group.data!.etag;
                      const { error, response } = await api.DELETE('/v2/groups/{group_id}', {
                        params: { path: { group_id: groupId }, header: etag ? { 'If-Match': etag } : {} },
                      });
                      if (error || !response.ok) setOutcome({ problem: asProblem(error, response) });
                      else setDeleted(true);
                    },
                    (error) => setOutcome({ problem: unreachable(error) }),
                  )}
                />
              </div>
            </>
          )}
          <Members
            groupId={groupId}
            cursor={cursor}
            canChange={canWrite && current.rule === null}
            // A rule group's members change without this page: read them again when its status or count does.
            version={current.rule === null ? '' : `${current.rule}|${current.rule_status}|${current.user_count}`}
            onChanged={changed}
          />
        </>
      )}
    </>
  );
}
