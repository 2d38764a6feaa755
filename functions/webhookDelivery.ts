import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sendToWebhookQueue } from '../lib/aws/sqs';
import { readChanges } from '../lib/changes/feed';
import { log } from '../lib/log';
import { withMetrics } from '../lib/metrics';
import { deployedAttemptDeps } from '../lib/webhooks/attempt';
import { handleMessage, type DeliveryDeps } from '../lib/webhooks/delivery';
import { MalformedMessageError, parseMessage } from '../lib/webhooks/messages';

const deliveryDeps = (): DeliveryDeps => ({
  ...deployedAttemptDeps(),
  enqueue: sendToWebhookQueue,
  feed: { readChanges },
});

/**
 * Triggered by the webhook delivery queue (lib/webhooks/messages.ts says what is on it). A message that fails
 * (the database or the queue failing) is reported in `batchItemFailures` alone: SQS delivers it again after its
 * visibility timeout, and after its receives are spent it waits in the dead-letter queue. A message that is not
 * one of ours is logged and dropped: delivering it again cannot help.
 */
export const handler = withMetrics(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = deliveryDeps();
  const batchItemFailures: SQSBatchItemFailure[] = [];
  for (const record of event.Records) {
    try {
      await handleMessage(parseMessage(record.body), deps);
    } catch (error) {
      if (error instanceof MalformedMessageError) {
        await log('error', 'webhook delivery: a queue message that is none of ours was dropped', { message_id: record.messageId, error });
        continue;
      }
      await log('error', 'webhook delivery: a message failed and will be received again', {
        message_id: record.messageId,
        error: error as Error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});

/** Where the local poller stopped in the change feed; none yet: it starts at the end. */
interface LocalPoll {
  cursor?: string;
}

/**
 * `npm start` has no stream, bus or rule: this walks the change feed from where the last poll stopped and puts
 * each change on the queue as the bus's rule would (`{"kind": "change", "change": …}`); the queue then triggers
 * `handler` as on AWS. The cursor comes in with the event and goes back in the answer (`resume`): the local runner
 * (infra/local/background.ts) keeps it, as each sandbox of this function has memory of its own. It moves only once
 * its page is on the queue, so a failed send is sent again by the next poll.
 */
export const pollLocally = withMetrics(async (event: LocalPoll): Promise<{ resume: LocalPoll }> => {
  let cursor = event?.cursor;
  for (;;) {
    const page = await readChanges({
      count: 100,
      ...(cursor === undefined ? { since: 'now' } : { cursor }),
      resourceTypes: [],
      excludeActors: [],
    });
    if (page.changes.length > 0)
      await sendToWebhookQueue(page.changes.map((change) => ({ body: { kind: 'change', change }, delaySeconds: 0 })));
    cursor = page.next_cursor;
    if (page.changes.length < 100) return { resume: { cursor } };
  }
});
