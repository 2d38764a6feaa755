/**
 * Groups (G2): a page at a time by cursor, sorted and filtered by a name prefix, all kept in the query, a rule group
 * marked with its rule and status; create a group (G3), its members chosen by hand or kept by a rule, after a dry-run
 * preview (a rule's: how many it matches, with the first of them); delete several at once (G7, all or nothing).
 */
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api, type Schemas } from '../api';
import type { operations } from '../api/schema';
import { Busy, ConfirmButton, Done, Pager, ScreenTitle, Time } from '../components/parts';
import { listHref, useQueryParams } from '../components/list-params';
import { RULE_STATUS, RuleInput, RulePreviewView } from '../components/rule';
import { asProblem, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

const PAGE_SIZE = 25;

type GroupSort = NonNullable<NonNullable<operations['listGroups']['parameters']['query']>['sort']>;

const SORTS: Array<{ value: GroupSort; label: string }> = [
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'user_count:desc', label: 'Most members first' },
  { value: 'user_count:asc', label: 'Fewest members first' },
  { value: 'created_at:desc', label: 'Newest first' },
  { value: 'created_at:asc', label: 'Oldest first' },
];

interface ListQuery {
  name?: string;
  sort?: string;
  cursor?: string;
}

const groupsHref = ({ name, sort }: ListQuery, cursor?: string) => listHref('/groups', { name, sort, cursor });

function Filters({ query }: { query: ListQuery }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState(query.name ?? '');
  const [sort, setSort] = useState(query.sort ?? 'name:asc');
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(groupsHref({ name: name.trim(), sort: sort === 'name:asc' ? undefined : sort }));
      }}
    >
      <div>
        <label for="group-name-filter">Name starts with</label>
        <input id="group-name-filter" value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <div>
        <label for="group-sort">Sort by</label>
        <select id="group-sort" value={sort} onChange={(event) => setSort(event.currentTarget.value)}>
          {SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Show</button>
    </form>
  );
}

/** The ids a comma, space or line separates (a pasted column of ids works). */
const idsOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function CreateGroup({ onCreated }: { onCreated: () => void }) {
  const [fields, setFields] = useState({ name: '', id: '', description: '', userIds: '', rule: '' });
  // A group's members are either chosen by hand or kept by a rule (the API refuses both: 409 rule-managed).
  const [byRule, setByRule] = useState(false);
  const [preview, setPreview] = useState<Schemas['Group']>();
  // A large group answered 202 is still having its members added (the API's slow changes): named, with where to see it.
  const [created, setCreated] = useState<Schemas['Group'] | { name: string; applying: string }>();
  const [problem, setProblem] = useState<Problem>();
  const set = (name: keyof typeof fields, value: string) => {
    setFields({ ...fields, [name]: value });
    setPreview(undefined);
  };
  const field = (name: keyof typeof fields) => ({
    value: fields[name],
    onInput: (event: { currentTarget: { value: string } }) => set(name, event.currentTarget.value),
  });
  const body = () => {
    const userIds = byRule ? [] : idsOf(fields.userIds);
    return {
      name: fields.name.trim(),
      ...(fields.id.trim() && { id: fields.id.trim() }),
      ...(fields.description && { description: fields.description }),
      ...(userIds.length > 0 && { user_ids: userIds }),
      ...(byRule && { rule: fields.rule.trim() }),
    };
  };
  const send = async (dryRun: boolean) => {
    setProblem(undefined);
    setCreated(undefined);
    const { data, error, response } = await api.POST('/v2/groups', {
      params: { query: dryRun ? { dry_run: 'true' } : {} },
      body: body(),
    });
    if (error || !data) return setProblem(asProblem(error, response));
    if ('resource' in data) {
      setPreview(undefined);
      setCreated({ name: body().name, applying: data.resource.replace(/^\/v2/, '') });
    } else if (dryRun) return setPreview(data);
    else {
      setPreview(undefined);
      setCreated(data);
    }
    setFields({ name: '', id: '', description: '', userIds: '', rule: '' });
    onCreated();
  };
  return (
    <section aria-labelledby="new-group">
      <h2 id="new-group">New group</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send(true);
        }}
      >
        <label for="new-group-name">Name</label>
        <input id="new-group-name" required maxLength={200} {...field('name')} />
        <label for="new-group-id">Id (optional: made up when empty)</label>
        <input id="new-group-id" {...field('id')} />
        <label for="new-group-description">Description (optional)</label>
        <textarea id="new-group-description" maxLength={2000} rows={2} {...field('description')} />
        <fieldset>
          <legend>Members</legend>
          <label class="choice">
            <input type="radio" name="new-group-members" checked={!byRule} onChange={() => (setByRule(false), setPreview(undefined))} />{' '}
            Chosen by hand
          </label>
          <label class="choice">
            <input type="radio" name="new-group-members" checked={byRule} onChange={() => (setByRule(true), setPreview(undefined))} /> Kept
            by a rule
          </label>
        </fieldset>
        {byRule ? (
          <RuleInput id="new-group-rule" required value={fields.rule} onInput={(value) => set('rule', value)} />
        ) : (
          <>
            <label for="new-group-users">Member user ids (optional: separated by commas, spaces or lines)</label>
            <textarea id="new-group-users" rows={3} {...field('userIds')} />
          </>
        )}
        <div class="actions">
          <button type="submit">Preview</button>
          {preview && (
            <button type="button" class="primary" onClick={() => void send(false)}>
              Create group
            </button>
          )}
        </div>
      </form>
      <ProblemMessage problem={problem} />
      {preview?.rule_preview && <RulePreviewView preview={preview.rule_preview} saveLabel="Create group" />}
      {preview && !preview.rule_preview && (
        <p class="done" role="status">
          Preview: the group “{preview.name}” would be created with {preview.user_count} members
          {preview.users.length > 0 && `: ${preview.users.map((user) => user.id).join(', ')}`}. Nothing is created until you choose Create
          group.
        </p>
      )}
      <Done>
        {created &&
          ('applying' in created ? (
            <>
              The group <Link href={created.applying}>{created.name}</Link> is created; its members are being added in the background.
            </>
          ) : (
            <>
              Created the group <Link href={`/groups/${encodeURIComponent(created.id)}`}>{created.name}</Link>{' '}
              {created.rule ? 'with its rule: its members join as the rule is applied.' : `with ${created.user_count} members.`}
            </>
          ))}
      </Done>
    </section>
  );
}

function GroupRow({
  group,
  selectable,
  selected,
  onSelect,
}: {
  group: Schemas['GroupSummary'];
  selectable: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
}) {
  return (
    <tr>
      {selectable && (
        <td>
          <input
            type="checkbox"
            aria-label={`Select ${group.name}`}
            checked={selected}
            onChange={(event) => onSelect(event.currentTarget.checked)}
          />
        </td>
      )}
      <th scope="row">
        <Link href={`/groups/${encodeURIComponent(group.id)}`}>{group.name}</Link>
      </th>
      <td>
        <code>{group.id}</code>
      </td>
      <td>{group.user_count}</td>
      <td>
        <Time iso={group.created_at} />
      </td>
      <td>
        {group.rule ? (
          <>
            <code>{group.rule}</code> ({group.rule_status ? RULE_STATUS[group.rule_status].short : 'no status'})
          </>
        ) : (
          'by hand'
        )}
      </td>
    </tr>
  );
}

export function Groups() {
  const canWrite = useCanWrite();
  const query = useQueryParams() as ListQuery;
  const { name, sort, cursor } = query;
  const list = useRequest(
    () =>
      api.GET('/v2/groups', {
        params: { query: { count: PAGE_SIZE, sort: sort as GroupSort, query: name ? `name:${name}` : undefined, cursor } },
      }),
    [name, sort, cursor],
  );
  const [selected, setSelected] = useState<string[]>([]);
  const [deleted, setDeleted] = useState<number>();
  const [problem, setProblem] = useState<Problem>();

  const deleteSelected = async () => {
    setProblem(undefined);
    setDeleted(undefined);
    const { error, response } = await api.DELETE('/v2/groups', { body: { group_ids: selected } });
    if (error || !response.ok) return setProblem(asProblem(error, response));
    setDeleted(selected.length);
    setSelected([]);
    list.reload();
  };

  return (
    <>
      <ScreenTitle>Groups</ScreenTitle>
      <Filters key={`${name}|${sort}`} query={query} />
      <Busy when={list.loading} />
      <ProblemMessage problem={list.problem} />
      {list.data && (
        <>
          <div class="table-scroll">
            <table>
              <caption>Groups{name ? ` whose name starts with “${name}”` : ''}</caption>
              <thead>
                <tr>
                  {canWrite && (
                    <th scope="col">
                      <span class="visually-hidden">Select</span>
                    </th>
                  )}
                  <th scope="col">Name</th>
                  <th scope="col">Id</th>
                  <th scope="col">Members</th>
                  <th scope="col">Created</th>
                  <th scope="col">Members kept</th>
                </tr>
              </thead>
              <tbody>
                {list.data.groups.map((group) => (
                  <GroupRow
                    key={group.id}
                    group={group}
                    selectable={canWrite}
                    selected={selected.includes(group.id)}
                    onSelect={(on) => setSelected(on ? [...selected, group.id] : selected.filter((id) => id !== group.id))}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {list.data.groups.length === 0 && <p>No group matches.</p>}
          <Pager
            shown={list.data.count}
            total={list.data.total}
            nextCursor={list.data.next_cursor}
            href={(next) => groupsHref(query, next)}
            first={!cursor}
            noun="groups"
          />
        </>
      )}
      {canWrite && (
        <div class="actions">
          <ConfirmButton
            label={`Delete the selected groups (${selected.length})`}
            question={`Delete these ${selected.length} groups: ${selected.join(', ')}? Their users stay; only the memberships go. If any of them is already gone, none is deleted.`}
            confirm="Delete them"
            danger
            disabled={selected.length === 0}
            onConfirm={() => void deleteSelected()}
          />
        </div>
      )}
      <ProblemMessage problem={problem} />
      <Done>{deleted !== undefined && `Deleted ${deleted} groups.`}</Done>
      {canWrite && <CreateGroup onCreated={list.reload} />}
    </>
  );
}
