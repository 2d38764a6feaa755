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
      } /** Run for table items that match (the table's stream, filtered); locally the module's `pollLocally` runs instead. */
    | { tableItems: Record<string, string>; localPollMs: number }
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
    trigger: { tableItems: { type: 'report', status: 'pending' }, localPollMs: 250 },
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
    trigger: { tableItems: { type: 'rule-work' }, localPollMs: 200 },
    // Applying a rule to 10,000 users writes for tens of seconds on a cold table.
    timeoutSeconds: 120,
  },
  WEBHOOK_DELIVERY,
];

export const isQueueTriggered = (job: BackgroundFunction): job is BackgroundFunction & { trigger: QueueTrigger } => 'queue' in job.trigger;
export const isStreamTriggered = (
  job: BackgroundFunction,
): job is BackgroundFunction & { trigger: { tableItems: Record<string, string> } } => 'tableItems' in job.trigger;
