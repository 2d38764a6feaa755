import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { runPendingRuleWork, runRuleWorkPatiently } from '../lib/groups/rule-follow';
import { withMetrics } from '../lib/metrics';

/**
 * Triggered by the table's stream for rule work (a user's cell changed, or a
 * group's rule is to be applied: lib/groups/rule-follow.ts). Work that must
 * wait (its group is being changed, contention) is tried again for a few
 * seconds; still waiting, its record is reported failed (ReportBatchItemFailures)
 * so that the mapping retries from it (the records after it come again too,
 * so none is started after it). The maintenance function runs what is left
 * older than a minute. A throw (the database failing) makes the mapping
 * retry the batch, bisected, then send it to the dead-letter queue.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    const subject = image?.subject?.S;
    const id = image?.subject_id?.S;
    if (!((subject === 'user' || subject === 'users' || subject === 'group') && id)) continue;
    if (!(await runRuleWorkPatiently(subject, id))) return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
  }
  return { batchItemFailures: [] };
});

/** `npm start` and the tests have no stream: they call this instead (infra/local/background.ts). */
export const pollLocally = withMetrics(() => runPendingRuleWork());
