/**
 * The functions that run without a route: the only list of them. The CDK
 * stack makes one Lambda function per entry with its trigger, and `npm start`
 * runs the same modules in the background. Like routes.ts, this module must
 * stay free of runtime dependencies.
 */

/** A queue that triggers a function (on AWS an SQS queue and a Lambda event source mapping; locally infra/local/queues.ts). */
export interface QueueTrigger {
  queue: {
    /** Messages per invocation at most. */
    batchSize: number;
    /** How long a received message stays hidden; one the function failed on comes back after it. At least 6 × the timeout (AWS's advice for SQS event sources). */
    visibilityTimeoutSeconds: number;
    /** Receives before a message moves to the dead-letter queue. */
    maxReceiveCount: number;
    /** Concurrent invocations the event source mapping may run at most (2 to 1,000). */
    maxConcurrency: number;
    /** The variable that gives the function, and each route with `webhookQueue: 'send'`, the queue's URL. */
    urlVariable: string;
  };
  /** Each change event of the change bus (infra/change-events.ts) is put on the queue as `{"kind":"change","change":<audit entry>}`. */
  changeEvents: boolean;
  /** Locally the module's `pollLocally` runs this often (it feeds the change feed into the queue: there is no bus). */
  localPollMs: number;
}

/**
 * Run for table items that match: the StreamRouter hands the function the table stream's records of them (an
 * asynchronous invoke with a stream event of those records), so that a new worker adds no reader to the stream;
 * locally the module's `pollLocally` runs instead.
 */
export interface StreamRouted {
  /** The items, by the string attributes of their new image (a record inserted or modified to match). */
  tableItems: Record<string, string>;
  /** The variable that gives the StreamRouter the function's name. */
  functionVariable: string;
  localPollMs: number;
}

/** The table stream's one reader (the StreamRouter): on AWS the stream's only event source mapping. */
export interface StreamReader {
  tableStream: {
    /** Item types whose inserts it handles itself (audit entries to sequence, feed entries to publish). */
    inserts: readonly string[];
    /** The variable that gives it the change bus's name. */
    busVariable: string;
  };
  /** Locally the module's `pollLocally` runs this often (it sequences the pending entries: there is no stream). */
  localPollMs: number;
}

export interface BackgroundFunction {
  /** Logical name; also the construct id in the stack. */
  name: string;
  /** Module name under `functions/`. */
  handler: string;
  summary: string;
  trigger:
    | /** Run on a schedule, every this many minutes (at least one, EventBridge's finest). */
      {
        everyMinutes: number;
      }
    | StreamRouted
    | StreamReader
    | QueueTrigger;
  /** What it may do beyond the table. */
  reportsBucket?: 'write';
  sendsEmail?: boolean;
  timeoutSeconds?: number;
}

/**
 * Webhook deliveries (lib/webhooks): one message per change, per retry and per replay. Each attempt waits at most
 * 10 s for its answer (the contract); a batch of 5 attempted one after another takes at most 50 s, and 10 s more
 * covers the table work around them: 60 s. Visibility 6 × 60 s = 360 s, as AWS advises for an SQS event source (a
 * batch retried by Lambda's own throttling must not reappear while still running). Retries on schedule are new
 * messages the function sends with a delay, not redeliveries, so 5 receives only catch crashes and timeouts of the
 * function itself before a message waits in the dead-letter queue. At most 10 invocations at once: a burst of
 * changes cannot take the account's concurrency from the API.
 */
export const WEBHOOK_DELIVERY: BackgroundFunction & { trigger: QueueTrigger } = {
  name: 'WebhookDelivery',
  handler: 'webhookDelivery',
  summary: 'Delivers each change to the webhooks whose filters match, signed, retried with backoff for 24 hours',
  trigger: {
    queue: { batchSize: 5, visibilityTimeoutSeconds: 360, maxReceiveCount: 5, maxConcurrency: 10, urlVariable: 'WEBHOOK_QUEUE_URL' },
    changeEvents: true,
    localPollMs: 250,
  },
  timeoutSeconds: 60,
};

/**
 * The one reader of the table's stream (AWS advises at most two per shard): appends each committed audit entry to
 * the change feed, publishes each feed entry to the change bus in order, and hands report jobs and rule work to
 * their workers (lib/changes/stream.ts). A minute bounds a batch's retries of the database (the maintenance sweep
 * appends what still fails).
 */
export const STREAM_ROUTER: BackgroundFunction & { trigger: StreamReader } = {
  name: 'StreamRouter',
  handler: 'streamRouter',
  summary: "The table stream's one reader: orders the change feed, publishes it to the change bus, hands records to workers",
  trigger: { tableStream: { inserts: ['audit', 'feed'], busVariable: 'CHANGE_BUS_NAME' }, localPollMs: 200 },
  timeoutSeconds: 90,
};

export const backgroundFunctions: readonly BackgroundFunction[] = [
  {
    name: 'Maintenance',
    handler: 'maintenance',
    summary: 'Finishes bulk moves and group changes whose driver died, repairs stalled reports, clears what deleted groups leave behind',
    trigger: { everyMinutes: 1 },
    // Finishing a bulk move or a group change of many users can outlast a request's 10 s.
    timeoutSeconds: 60,
  },
  {
    name: 'ReportWorker',
    handler: 'reportWorker',
    summary: 'Writes report CSVs to S3 and e-mails them',
    trigger: { tableItems: { type: 'report', status: 'pending' }, functionVariable: 'REPORT_WORKER_FUNCTION', localPollMs: 250 },
    reportsBucket: 'write',
    sendsEmail: true,
    // Matches WORKER_TIMEOUT_SECONDS in lib/reports/jobs.ts, whose lease assumes it.
    timeoutSeconds: 300,
  },
  {
    name: 'RuleWorker',
    handler: 'ruleWorker',
    summary:
      "Keeps rule groups' members: applies a rule when it changes, and follows every change of a user's department, role or activation",
    trigger: { tableItems: { type: 'rule-work' }, functionVariable: 'RULE_WORKER_FUNCTION', localPollMs: 200 },
    // Applying a rule to 10,000 users writes for tens of seconds on a cold table.
    timeoutSeconds: 120,
  },
  // After the functions it hands records to: the stack grants it their invocation.
  STREAM_ROUTER,
  WEBHOOK_DELIVERY,
];

export const isQueueTriggered = (job: BackgroundFunction): job is BackgroundFunction & { trigger: QueueTrigger } => 'queue' in job.trigger;
/** A function the StreamRouter hands stream records to. */
export const isStreamRouted = (job: BackgroundFunction): job is BackgroundFunction & { trigger: StreamRouted } =>
  'tableItems' in job.trigger;
/** The function whose event source mapping reads the table's stream. */
export const isStreamReader = (job: BackgroundFunction): job is BackgroundFunction & { trigger: StreamReader } =>
  'tableStream' in job.trigger;
