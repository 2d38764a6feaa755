import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { publishChanges } from '../lib/aws/events';
import { invokeAsync } from '../lib/aws/lambda';
import { backgroundFunctions, isStreamRouted } from '../lib/background';
import { sequenceEntries, sequencePending } from '../lib/changes/sequencer';
import { routeRecords } from '../lib/changes/stream';
import { resourceName, type ResourceSetting } from '../lib/config';
import { withMetrics } from '../lib/metrics';

/** Time a batch may spend retrying the database before its records are reported failed (of the function's 90 s). */
const SEQUENCE_DEADLINE_MS = 60_000;

/**
 * The table stream's one event source mapping (lib/changes/stream.ts): audit entries into the change feed, feed
 * entries onto the change bus, report jobs and rule work to their workers. Failed records are reported
 * (ReportBatchItemFailures) and the mapping retries from the earliest.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  routeRecords(event.Records, {
    sequence: (entries) => sequenceEntries(entries, { deadlineMs: SEQUENCE_DEADLINE_MS }),
    publish: publishChanges,
    invoke: invokeAsync,
    workers: backgroundFunctions.filter(isStreamRouted).map((job) => ({
      name: job.name,
      items: job.trigger.tableItems,
      functionName: resourceName(job.trigger.functionVariable as ResourceSetting),
    })),
  }),
);

/**
 * `npm start` and the tests have no stream: this places every pending entry in the change feed instead
 * (infra/local/background.ts). The feed's followers there read it by cursor (the webhooks' poller), and the
 * workers have pollers of their own.
 */
export const pollLocally = withMetrics(() => sequencePending());
