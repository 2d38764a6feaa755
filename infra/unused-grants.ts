/**
 * The one place that says why a role may hold an action none of its
 * functions' code calls in the test suite. The suite fails on any other
 * granted-but-unused action (test/support/global-setup.ts, with
 * CHECK_UNUSED_GRANTS=1): a grant is either used, justified here, or removed.
 */
import { backgroundFunctions, isQueueTriggered, isStreamReader, isStreamRouted } from '../lib/background';

export interface UnusedGrantReason {
  /** An action, or an action pattern such as `xray:*`. */
  action: string;
  /** The handlers (functions/<name>.ts) whose roles it applies to; every role without. */
  functions?: readonly string[];
  reason: string;
}

/** The function Lambda invokes from the table's stream, through an event source mapping that uses its role. */
const STREAM_FUNCTIONS = backgroundFunctions.filter(isStreamReader).map((job) => job.handler);
/** The functions the StreamRouter invokes asynchronously, whose failed events Lambda sends on with their role. */
const ROUTED_FUNCTIONS = backgroundFunctions.filter(isStreamRouted).map((job) => job.handler);
/** The functions Lambda invokes from a queue of their own (infra/background.ts), polled with their role. */
const QUEUE_FUNCTIONS = backgroundFunctions.filter(isQueueTriggered).map((job) => job.handler);
/** The functions that upload reports to S3. */
const REPORT_WRITERS = backgroundFunctions.filter((job) => job.reportsBucket === 'write').map((job) => job.handler);

export const UNUSED_GRANT_REASONS: readonly UnusedGrantReason[] = [
  ...['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'].map((action) => ({
    action,
    reason:
      "the Lambda runtime writes the function's log with its role (AWSLambdaBasicExecutionRole); the code never calls CloudWatch Logs",
  })),
  ...['xray:PutTraceSegments', 'xray:PutTelemetryRecords'].map((action) => ({
    action,
    reason: "Lambda's active tracing sends the function's trace segments with its role; locally nothing is traced",
  })),
  ...['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].map((action) => ({
    action,
    functions: STREAM_FUNCTIONS,
    reason: "Lambda's event source mapping reads the table's stream with the function's role; locally the stream is simulated",
  })),
  {
    action: 'sqs:SendMessage',
    functions: STREAM_FUNCTIONS,
    reason:
      "Lambda's event source mapping sends the records that still fail after its retries to the dead-letter queue, with the function's role",
  },
  {
    action: 'sqs:SendMessage',
    functions: ROUTED_FUNCTIONS,
    reason:
      "Lambda sends an asynchronous invocation's event that still fails after its two retries to the function's on-failure destination (its dead-letter queue), with the function's role",
  },
  ...['events:PutEvents', 'lambda:InvokeFunction'].map((action) => ({
    action,
    functions: STREAM_FUNCTIONS,
    reason:
      "the StreamRouter's handler runs only on the table's stream, which the local stack does not have (locally its pollLocally appends to the feed, the webhook poller follows the feed, the workers poll): its publishing and invoking are tested with recording clients, checked against this role (test/unit/stream-router.test.ts)",
  })),
  ...['sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl'].map((action) => ({
    action,
    functions: QUEUE_FUNCTIONS,
    reason:
      "granted by CDK's SqsEventSource for Lambda's event source mapping, which polls the queue with the function's role; the local mapping (infra/local/queues.ts) polls with that role too, through the call checker, and uses ReceiveMessage, DeleteMessageBatch and GetQueueAttributes, but neither changes a message's visibility nor looks a queue up by name",
  })),
  {
    action: 'dynamodb:DeleteItem',
    functions: ['createScimToken'],
    reason:
      "lib/http/idempotency.ts releases (deletes) the idempotency record of a request that fails with an error, so that a retry runs; no test makes a token's creation fail after its claim",
  },
  ...['BatchGetItem', 'BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'UpdateItem'].map((action) => ({
    action: `dynamodb:${action}`,
    functions: ['maintenance'],
    reason:
      'the maintenance function reads items by key and writes only to finish work a crashed or timed-out function left behind (a quiet table costs it queries alone); the suite makes such work by injecting faults in process and heals it there at chosen clock times (test/http/faults.test.ts, test/integration/bulk-move, group-bulk-change, groups-cleanup), which a bundle reading the real clock cannot be given; test/http/group-sweep.test.ts runs its bundle on a quiet table',
  })),
  {
    action: 'dynamodb:BatchWriteItem',
    functions: ['ruleWorker'],
    reason:
      "a rule's apply goes through the bulk group-change protocol (lib/groups/bulk-change.ts), which deletes the parts of a change that never committed with BatchWriteItem (`discard`); an apply discards one only when a racing change of the group made its commit fail, which the suite's timing makes only sometimes",
  },
  {
    action: 's3:AbortMultipartUpload',
    functions: REPORT_WRITERS,
    reason: "lib-storage's Upload aborts a multipart upload whose part fails, so no parts are left behind; no test fails an upload midway",
  },
];
