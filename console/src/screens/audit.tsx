/**
 * The audit trail: every change, newest first, a page at a time by cursor, filtered by actor, operation, resource
 * and time, all kept in the query. No total and no page numbers: the trail is a log that only grows.
 */
import { useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { Busy, isoToLocalInput, localInputToIso, Pager, ScreenTitle, Time } from '../components/parts';
import { listHref, useQueryParams } from '../components/list-params';
import { useRequest } from '../components/use-request';
import { ProblemMessage } from '../problems';

const PAGE_SIZE = 50;

/** The trail's filters, as the query names them (the API's `query` attributes and its two time bounds). */
const FILTERS = ['actor', 'operation', 'resource_id', 'since', 'before'] as const;
type Filter = (typeof FILTERS)[number];
type Filters = Partial<Record<Filter, string>>;

const auditHref = (filters: Filters, cursor?: string) => listHref('/audit', { ...filters, cursor });

/** The API's `query`: the attributes given, each `<attribute>:<value>`. */
const auditQuery = (filters: Filters) =>
  (['actor', 'operation', 'resource_id'] as const)
    .filter((name) => filters[name])
    .map((name) => `${name}:${filters[name]}`)
    .join(',') || undefined;

const LABELS: Record<Filter, string> = {
  actor: 'Actor',
  operation: 'Operation (e.g. G4)',
  resource_id: 'Resource id',
  since: 'At or after',
  before: 'Before',
};

function FilterForm({ filters }: { filters: Filters }) {
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<Filters>({
    ...filters,
    since: isoToLocalInput(filters.since),
    before: isoToLocalInput(filters.before),
  });
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = Object.fromEntries(FILTERS.map((name) => [name, draft[name]?.trim() || undefined]));
        navigate(auditHref({ ...trimmed, since: localInputToIso(draft.since ?? ''), before: localInputToIso(draft.before ?? '') }));
      }}
    >
      {FILTERS.map((name) => (
        <div key={name}>
          <label for={`audit-${name}`}>{LABELS[name]}</label>
          <input
            id={`audit-${name}`}
            type={name === 'since' || name === 'before' ? 'datetime-local' : 'text'}
            value={draft[name] ?? ''}
            onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
          />
        </div>
      ))}
      <button type="submit">Show</button>
    </form>
  );
}

/** One value of a change, short: a list's items, an object's `key value` pairs, a `from → to` pair as such. */
function compact(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value))
    return value.length > 10
      ? `${value.slice(0, 10).map(compact).join(', ')} and ${value.length - 10} more`
      : value.map(compact).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('from' in record && 'to' in record && Object.keys(record).length === 2) return `${compact(record.from)} → ${compact(record.to)}`;
    return Object.entries(record)
      .map(([key, inner]) => `${key} ${compact(inner)}`)
      .join('; ');
  }
  return String(value);
}

function Changes({ changes }: { changes: Schemas['AuditEntry']['changes'] }) {
  const entries = Object.entries(changes);
  if (entries.length === 0) return <span>—</span>;
  return (
    <ul class="audit-changes">
      {entries.map(([key, value]) => (
        <li key={key}>
          <span class="audit-key">{key.replace(/_/g, ' ')}</span>: {compact(value)}
        </li>
      ))}
    </ul>
  );
}

/** Where the console shows a resource, when it has a screen for it. */
const RESOURCE_SCREENS: Partial<Record<Schemas['AuditEntry']['resource_type'], string>> = {
  group: '/groups',
  department: '/departments',
  user: '/users',
  webhook: '/webhooks',
};

function Resource({ type, id }: { type: Schemas['AuditEntry']['resource_type']; id: string }) {
  const screen = RESOURCE_SCREENS[type];
  return (
    <>
      {type}{' '}
      {screen ? (
        <Link href={`${screen}/${encodeURIComponent(id)}`}>
          <code>{id}</code>
        </Link>
      ) : (
        <code>{id}</code>
      )}
    </>
  );
}

export function Audit() {
  const params = useQueryParams();
  const filters: Filters = Object.fromEntries(FILTERS.map((name) => [name, params[name]]));
  const { cursor } = params;
  const key = auditHref(filters, cursor);
  const trail = useRequest(
    () =>
      api.GET('/v2/audit', {
        params: { query: { count: PAGE_SIZE, query: auditQuery(filters), since: filters.since, before: filters.before, cursor } },
      }),
    [key],
  );
  return (
    <>
      <ScreenTitle>Audit trail</ScreenTitle>
      <FilterForm key={auditHref(filters)} filters={filters} />
      <Busy when={trail.loading} />
      <ProblemMessage problem={trail.problem} />
      {trail.data && (
        <>
          <div class="table-scroll">
            <table class="audit">
              <caption>Changes, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Operation</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Changes</th>
                </tr>
              </thead>
              <tbody>
                {trail.data.entries.map((entry) => (
                  <tr key={entry.id} data-entry-id={entry.id}>
                    <th scope="row">
                      <Time iso={entry.at} />
                    </th>
                    <td>{entry.actor}</td>
                    <td>{entry.operation}</td>
                    <td>
                      <Resource type={entry.resource_type} id={entry.resource_id} />
                    </td>
                    <td>
                      <Changes changes={entry.changes} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {trail.data.entries.length === 0 && <p>No change matches.</p>}
          <Pager
            shown={trail.data.count}
            nextCursor={trail.data.next_cursor}
            href={(next) => auditHref(filters, next)}
            first={!cursor}
            noun="changes"
          />
        </>
      )}
    </>
  );
}
