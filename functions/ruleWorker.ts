import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runPendingRuleWork, runRuleWork } from '../lib/groups/rule-follow';
import { withMetrics } from '../lib/metrics';

/**
 * Triggered by the table's stream for rule work (a user's cell changed, or a
 * group's rule is to be applied: lib/groups/rule-follow.ts). Work that must
 * wait (its group is being changed) stays in the table and is run again by
 * the maintenance function; a throw (the database failing) makes the mapping
 * retry, then send the batch to the dead-letter queue.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const subject = image?.subject?.S;
    const id = image?.subject_id?.S;
    if ((subject === 'user' || subject === 'users' || subject === 'group') && id) await runRuleWork(subject, id);
  }
});

/** `npm start` and the tests have no stream: they call this instead (infra/local/background.ts). */
export const pollLocally = withMetrics(() => runPendingRuleWork());
