import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runRuleWorkAsItComes, runStreamedRuleWork } from '../lib/groups/rule-work';
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
 * bisected, then send it to the dead-letter queue. Only the records of rule
 * work written (not deleted) are work: whatever hands it the stream's records
 * (a mapping filtered to them, or one reader routing every record), the rest
 * are skipped.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => {
  await runStreamedRuleWork(event.Records.map((record) => record.dynamodb?.NewImage));
});

/** `npm start` and the tests have no stream: they call this instead (infra/local/background.ts). */
export const pollLocally = withMetrics(() => runRuleWorkAsItComes());
