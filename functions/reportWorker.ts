import type { DynamoDBStreamEvent } from 'aws-lambda';
import { withMetrics } from '../lib/metrics';
import { runPendingReports, runReport } from '../lib/reports/worker';

/**
 * Triggered by the table's stream for report jobs that become pending (the
 * event source mapping filters on it). A throw (the database failing) makes
 * the mapping retry, then send the batch to the dead-letter queue.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const id = record.dynamodb?.NewImage?.id?.S;
    if (id) await runReport(id);
  }
});

/** `npm start` and the tests have no stream: they call this instead (infra/local/background.ts). */
export const pollLocally = withMetrics(runPendingReports);
