/**
 * A resumed webhook's replay: every change of its paused window
 * [since, until) that its filters let through, read from the change feed
 * (which never skips a change) and queued as a first attempt each.
 *
 * - It starts only once the resume is committed (the webhook's `resumed_at`
 *   is `until` or later: the PATCH sends this message before it commits, and
 *   a resume that did not commit leaves a replay that ends after a grace
 *   minute), and once the feed holds the whole window: the feed returns a
 *   change only once it is settled (`settleMs` after its time), so the walk
 *   waits until `until + settleMs` has passed.
 * - It reads from `since` to the end of the window: a change at or after
 *   `until + settleMs` comes after every change of the window in the feed's
 *   order, and an empty page (the walk reads unfiltered) is the end of the
 *   feed, which by then is past the window. A walk longer than one invocation's share goes on in a new
 *   replay message from its cursor.
 * - Any failure fails the message, which SQS delivers again: the walk
 *   starts again from its last queued cursor, so changes may be attempted
 *   twice, never skipped.
 */
import type { AuditEntry } from '../schemas/responses';
import { findWebhook, findWebhookHealth } from '../store/webhooks';
import { matchesFilters } from './filters';
import type { AttemptMessage, Enqueue, ReplayMessage } from './messages';
import { queueDelaySeconds } from './schedule';

/** The change feed (lib/changes/feed.ts), as the replay reads it. */
export interface ChangeFeed {
  readChanges(
    request: { count: number; cursor?: string; since?: string | 'now'; resourceTypes: string[]; excludeActors: string[] },
    now: Date,
  ): Promise<{ changes: AuditEntry[]; count: number; next_cursor: string }>;
  /** A change appears in the feed at most this long after its `at`. */
  settleMs: number;
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
  const settled = new Date(until + deps.feed.settleMs);
  if (now < settled) {
    await deps.enqueue([{ body: message, delaySeconds: Math.max(1, queueDelaySeconds(settled, now)) }]);
    return;
  }
  let cursor = message.cursor;
  const windowEnd = new Date(settled).toISOString();
  for (let pages = 0; pages < PAGES_PER_MESSAGE; pages++) {
    const page = await deps.feed.readChanges(
      { count: PAGE, ...(cursor ? { cursor } : { since: message.since }), resourceTypes: [], excludeActors: [] },
      now,
    );
    const attempts = page.changes
      .filter((change) => change.at >= message.since && change.at < message.until && matchesFilters(webhook, change))
      .map((change): AttemptMessage => ({ kind: 'attempt', webhook_id: webhook.id, change, attempt: 1, due_at: now.toISOString() }));
    if (attempts.length > 0) await deps.enqueue(attempts.map((body) => ({ body, delaySeconds: 0 })));
    cursor = page.next_cursor;
    // Unfiltered, an empty page is the end of the (settled) feed: a page stops short only at the shards' frontier.
    const pastWindow = page.changes.length === 0 || page.changes.some((change) => change.at >= windowEnd);
    if (pastWindow) return;
  }
  await deps.enqueue([{ body: { ...message, cursor }, delaySeconds: 0 }]);
}
