/**
 * The overview's latest changes, followed as they happen: the audit trail's newest few at once, then the change feed
 * from the moment the screen opened (`since=now`), asked again by its cursor every few seconds while the screen is
 * shown and the tab visible. The feed holds a change back until nothing can commit before it (about 5 s), so a change
 * shows here within about two polls. Arrivals are announced politely; the focus stays where the person is.
 */
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { Busy, Time } from '../components/parts';
import { asProblem, unreachable } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';

type Entry = Schemas['AuditEntry'];

/** How many changes the overview shows, newest first. */
export const CHANGES_SHOWN = 10;
/** How many of the newest it starts with, from the audit trail. */
const CHANGES_AT_OPEN = 5;
/** How long after an answer the feed is asked again. */
export const FEED_POLL_MS = 5_000;
/** One poll's page: a full one means changes come faster than the overview can show; it then jumps to the present. */
const FEED_PAGE = 25;

interface LatestChanges {
  entries: Entry[];
  /** The newest first, until the audit trail's newest have come. */
  loading: boolean;
  /** The audit trail's answer at open, when it failed. */
  problem?: Problem;
  /** The feed's last answer, when it failed (the next poll tries again). */
  feedProblem?: Problem;
  /** What the last poll that brought something says, for the live region. */
  announcement: string;
}

const summary = (entry: Entry) => `${entry.operation} on ${entry.resource_type} ${entry.resource_id} by ${entry.actor}`;

/** Newest first, each change once (the trail's newest and the feed's first page may both hold a change). */
function merged(shown: Entry[], arrived: Entry[]): Entry[] {
  const byId = new Map([...shown, ...arrived].map((entry) => [entry.id, entry]));
  return [...byId.values()].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1)).slice(0, CHANGES_SHOWN);
}

function announcementOf(arrived: Entry[], behind: boolean): string {
  const newest = arrived[arrived.length - 1];
  const said =
    arrived.length === 1 ? `1 new change: ${summary(newest)}.` : `${arrived.length} new changes; the newest: ${summary(newest)}.`;
  return behind ? `${said} More changed than the overview shows: the audit trail has every change.` : said;
}

function useLatestChanges(): LatestChanges {
  const [state, setState] = useState<LatestChanges>({ entries: [], loading: true, announcement: '' });
  useEffect(() => {
    const abort = new AbortController();
    // Where the feed goes on; none: start again at the present (at open, after falling behind, after a refused cursor).
    let cursor: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking = false;

    const next = () => {
      clearTimeout(timer);
      timer = !abort.signal.aborted && document.visibilityState === 'visible' ? setTimeout(() => void poll(), FEED_POLL_MS) : undefined;
    };
    async function poll() {
      timer = undefined;
      if (asking) return;
      asking = true;
      try {
        const query = cursor === undefined ? { since: 'now' } : { cursor, count: FEED_PAGE };
        const { data, error, response } = await api.GET('/v2/changes', { params: { query }, signal: abort.signal });
        if (error || !data) {
          // A cursor the service no longer reads (400) is given up; anything else passes, and the next poll tries again.
          if (response.status === 400) cursor = undefined;
          setState((previous) => ({ ...previous, feedProblem: asProblem(error, response) }));
        } else {
          const behind = data.count >= FEED_PAGE;
          cursor = behind ? undefined : data.next_cursor;
          setState((previous) => ({
            ...previous,
            feedProblem: undefined,
            ...(data.changes.length > 0 && {
              entries: merged(previous.entries, data.changes),
              announcement: announcementOf(data.changes, behind),
            }),
          }));
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        setState((previous) => ({ ...previous, feedProblem: unreachable(error) }));
      } finally {
        asking = false;
      }
      next();
    }
    const onVisibility = () => {
      if (document.visibilityState !== 'visible') {
        clearTimeout(timer);
        timer = undefined;
      } else if (timer === undefined) void poll();
    };

    void poll();
    api.GET('/v2/audit', { params: { query: { count: CHANGES_AT_OPEN } }, signal: abort.signal }).then(
      ({ data, error, response }) =>
        setState((previous) =>
          error || !data
            ? { ...previous, loading: false, problem: asProblem(error, response) }
            : { ...previous, loading: false, entries: merged(previous.entries, data.entries) },
        ),
      (error: unknown) =>
        !abort.signal.aborted &&
        setState((previous) => ({
          ...previous,
          loading: false,
          problem: unreachable(error),
        })),
    );
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      abort.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return state;
}

export function LatestChanges() {
  const changes = useLatestChanges();
  return (
    <section aria-labelledby="latest-changes">
      <h2 id="latest-changes">Latest changes</h2>
      <p class="hint">New changes appear here as they happen, within about ten seconds.</p>
      <Busy when={changes.loading} />
      <ProblemMessage problem={changes.problem} />
      <ProblemMessage problem={changes.feedProblem} />
      <ul class="changes">
        {changes.entries.map((entry) => (
          <li key={entry.id} data-entry-id={entry.id}>
            <Time iso={entry.at} /> <strong>{entry.operation}</strong> on {entry.resource_type} <code>{entry.resource_id}</code> by{' '}
            {entry.actor}
          </li>
        ))}
      </ul>
      {!changes.loading && changes.entries.length === 0 && !changes.problem && <p>No change yet.</p>}
      <p class="hint" role="status" aria-live="polite" aria-atomic="true">
        {changes.announcement}
      </p>
      <Link href="/audit">The whole audit trail</Link>
    </section>
  );
}
