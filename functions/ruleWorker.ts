import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runRuleWorkAsItComes, runRuleWorkPatiently } from '../lib/groups/rule-work';
import { withMetrics } from '../lib/metrics';

/**
 * Triggered by the table's stream for rule work (a user's cell changed, or a
 * group's rule is to be applied: lib/groups/rule-work.ts). Work that must
 * wait (its group is being changed, contention) is tried again for a few
 * seconds; still waiting, it stays in the table and the maintenance function
 * runs it once older than a minute. Its record is not reported failed: a
 * rule's apply can hold a group longer than a shard should stall, and the
 * retries would end in the dead-letter queue, and its alarm, though nothing
 * failed. A throw (the database failing) makes the mapping retry the batch,
 * bisected, then send it to the dead-letter queue.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const subject = image?.subject?.S;
    const id = image?.subject_id?.S;
    if ((subject === 'user' || subject === 'users' || subject === 'group') && id) await runRuleWorkPatiently(subject, id);
  }
});

/** `npm start` and the tests have no stream: they call this instead (infra/local/background.ts). */
export const pollLocally = withMetrics(() => runRuleWorkAsItComes());
