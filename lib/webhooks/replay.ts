/**
 * A resumed webhook's replay: every change of its paused window
 * [since, until) that its filters let through, read from the change feed
 * (which never skips a change) and queued as a first attempt each.
 *
 * - It starts only once the resume is committed (the webhook's `resumed_at`
 *   is `until` or later: the PATCH sends this message before it commits, and
 *   a resume that did not commit leaves a replay that ends after a grace
 *   minute).
 * - The window is by `at`, and a change's place in the feed is not: a change
 *   stamped inside the window may commit, and reach the feed, any time later.
 *   So the replay and the fan-out hand over at the feed's end. The replay
 *   walks the feed from `since` to its end, then records that it got there
 *   (the health item's `replayed_until`), then walks on to the end once more
 *   (`closed`). The fan-out leaves a window's change to the replay only while
 *   that record is absent, and reads it after the change is in the feed: if
 *   it finds none, the record is written later, and the replay's last walk,
 *   made after that, reads the change; if it finds it, the fan-out delivers
 *   the change itself. Either way the change goes out (at most twice, with
 *   one `webhook-id`), and no clock or commit latency enters into it.
 * - A walk longer than one invocation's share goes on in a new replay message
 *   from its cursor. Any failure fails the message, which SQS delivers again:
 *   the walk starts again from its last queued cursor, so changes may be
 *   attempted twice, never skipped.
 */
import type { AuditEntry } from '../schemas/responses';
import { findWebhook, findWebhookHealth, recordReplayEnd } from '../store/webhooks';
import { matchesFilters } from './filters';
import type { AttemptMessage, Enqueue, ReplayMessage } from './messages';

/** The change feed (lib/changes/feed.ts), as the replay reads it. */
export interface ChangeFeed {
  readChanges(request: {
    count: number;
    cursor?: string;
    since?: string | 'now';
    resourceTypes: string[];
    excludeActors: string[];
  }): Promise<{ changes: AuditEntry[]; count: number; next_cursor: string }>;
}

export interface ReplayDeps {
  now: () => Date;
  enqueue: Enqueue;
  feed: ChangeFeed;
}

const PAGE = 100;
/** Pages one message walks before it hands on to the next (each page's attempts are queued, not made here). */
const PAGES_PER_MESSAGE = 20;
/** How long a replay waits for the resume that sent it to commit. */
const RESUME_COMMIT_GRACE_MS = 60_000;
const RECHECK_SECONDS = 5;

export async function replayChanges(message: ReplayMessage, deps: ReplayDeps): Promise<void> {
  const [webhook, health] = await Promise.all([findWebhook(message.webhook_id), findWebhookHealth(message.webhook_id)]);
  if (!webhook || health.disabled_at) return;
  const now = deps.now();
  const until = Date.parse(message.until);
  if (webhook.resumed_at === null || webhook.resumed_at < message.until) {
    // Not resumed (yet): wait for the commit a little, then let it go (the resume failed; a later one replays anew).
    if (now.getTime() - until < RESUME_COMMIT_GRACE_MS) await deps.enqueue([{ body: message, delaySeconds: RECHECK_SECONDS }]);
    return;
  }
  let { cursor, closed } = message;
  for (let pages = 0; pages < PAGES_PER_MESSAGE; pages++) {
    const page = await deps.feed.readChanges({
      count: PAGE,
      ...(cursor ? { cursor } : { since: message.since }),
      resourceTypes: [],
      excludeActors: [],
    });
    const attempts = page.changes
      .filter((change) => change.at >= message.since && change.at < message.until && matchesFilters(webhook, change))
      .map((change): AttemptMessage => ({ kind: 'attempt', webhook_id: webhook.id, change, attempt: 1, due_at: now.toISOString() }));
    if (attempts.length > 0) await deps.enqueue(attempts.map((body) => ({ body, delaySeconds: 0 })));
    cursor = page.next_cursor;
    // Unfiltered, a page short of its count is the feed's end as it stands.
    if (page.count < PAGE) {
      if (closed) return;
      await recordReplayEnd(webhook.id, message.until);
      closed = true;
    }
  }
  await deps.enqueue([{ body: { ...message, cursor, ...(closed ? { closed } : {}) }, delaySeconds: 0 }]);
}
