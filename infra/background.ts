/**
 * A background function (lib/background.ts) with its trigger: a schedule
 * (EventBridge rule with retries), the table's stream (the StreamRouter
 * alone: the stream's one event source mapping, filtered to what it handles,
 * with retries, bisecting, no record older than a day), records the router
 * hands on (an asynchronous invoke, retried twice by Lambda), or a queue of
 * its own. Either way, work that still fails lands in an encrypted
 * dead-letter queue whose depth raises an alarm.
 *
 * The queue (webhook delivery): an SQS queue read by a Lambda event source
 * mapping that reports each failed message of a batch (ReportBatchItemFailures),
 * so one bad message is retried alone; a message received `maxReceiveCount`
 * times moves to the dead-letter queue. With `changeEvents`, a rule on the
 * change bus puts each change on it as `{"kind":"change","change":<entry>}`
 * (an input transformer; the rule's own failures wait in a dead-letter queue
 * of the rule target), and only that rule may send there (the queue policy,
 * conditioned on the rule's ARN); the function itself may send to it too.
 *
 * Why SQS and a Lambda consumer rather than EventBridge API destinations,
 * which also retry for 24 hours: an API destination signs with one
 * connection's static credential (API key, basic or OAuth), not the
 * Standard Webhooks HMAC over id, timestamp and body with each webhook's own
 * secret (two during a rotation); it cannot resolve an endpoint's address and
 * refuse a private or metadata one at each delivery (SSRF), nor refuse a
 * redirect; it needs a connection and a destination per endpoint (CloudFormation
 * resources made at run time by a route); its retries cannot keep one
 * `webhook-id` with a recorded attempt log, nor disable a webhook after 24
 * hours of failures. The function does all of that; SQS gives it durable
 * retries with no server: a retry is a new message with DelaySeconds (at most
 * 900 s, so a backoff longer than 15 minutes is taken in hops of at most 15
 * minutes, each message carrying when it is due), and a crash of the
 * function is caught by the visibility timeout and the dead-letter queue.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventField, Rule, RuleTargetInput, Schedule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  StartingPosition,
  type DestinationConfig,
  type DestinationOptions,
  type DlqDestinationConfig,
  type IDestination,
  type IEventSourceDlq,
  type IEventSourceMapping,
  type IFunction,
} from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { backgroundFunctions, isStreamRouted, type BackgroundFunction, type QueueTrigger, type StreamReader } from '../lib/background';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE } from '../lib/config';
import { tableStatementsForJob } from './access';
import { sendMessageStatement } from './function-roles';
import { FUNCTION_TIMEOUT } from './bundling';
import { ServiceFunction } from './service-function';

export interface BackgroundJobProps {
  job: BackgroundFunction;
  projectRoot: string;
  environment: Record<string, string>;
  table: ITable;
  reportsBucket: IBucket;
  /** The only identity e-mail may be sent as. */
  emailFrom: string;
  /** Where e-mail may go (lib/config.ts `reportEmailDomains`): the send permission holds no more. */
  emailDomains: '*' | readonly string[];
  /** The bus of change events (infra/change-events.ts), for a queue trigger with `changeEvents` and the StreamRouter. */
  changeBus?: IEventBus;
  /** The background functions made before this one, by name: the StreamRouter invokes those it hands records to. */
  jobs?: ReadonlyMap<string, { function: IFunction }>;
}

/** How long a message waits in a queue of the service, or its dead-letter queue: SQS's longest, time to fix a bug. */
const RETENTION = Duration.days(14);

export class BackgroundJob extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;
  /** The queue of a queue-triggered function. */
  readonly queue?: Queue;
  /** Where change events wait that the rule could not put on the queue. */
  readonly changeRuleDeadLetterQueue?: Queue;

  constructor(
    scope: Construct,
    id: string,
    { job, projectRoot, environment, table, reportsBucket, emailFrom, emailDomains, changeBus, jobs }: BackgroundJobProps,
  ) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: RETENTION,
    });
    const timeout = job.timeoutSeconds === undefined ? undefined : Duration.seconds(job.timeoutSeconds);
    if ('queue' in job.trigger) {
      const { visibilityTimeoutSeconds } = job.trigger.queue;
      // AWS's advice for an SQS event source: a visibility of at least 6 times the function's timeout.
      if (visibilityTimeoutSeconds < 6 * (job.timeoutSeconds ?? FUNCTION_TIMEOUT.toSeconds()))
        throw new Error(`${job.name}: its queue's visibility timeout must be at least 6 × its timeout`);
      this.queue = new Queue(this, 'Queue', {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // Each retry is a new message, so none needs long here; shorter than its dead-letter queue's, because a moved
        // message keeps its first enqueue time and would otherwise expire there early.
        retentionPeriod: Duration.days(4),
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds),
        deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: job.trigger.queue.maxReceiveCount },
      });
      environment = { ...environment, [job.trigger.queue.urlVariable]: this.queue.queueUrl };
    }
    this.function = new ServiceFunction(this, 'Function', {
      handler: job.handler,
      description: job.summary,
      tableStatements: tableStatementsForJob(job),
      projectRoot,
      environment,
      table,
      timeout,
    }).function;

    if ('queue' in job.trigger) {
      this.changeRuleDeadLetterQueue = this.queueTrigger(job, job.trigger, this.queue!, changeBus);
    } else if ('everyMinutes' in job.trigger) {
      const minutes = job.trigger.everyMinutes;
      new Rule(this, 'Schedule', {
        description: `Runs ${job.name} every ${minutes} minute(s)`,
        schedule: Schedule.rate(Duration.minutes(minutes)),
        targets: [
          new LambdaFunction(this.function, {
            retryAttempts: 2,
            // A run older than its period is superseded by the next one.
            maxEventAge: Duration.minutes(Math.max(minutes, 1)),
            deadLetterQueue: this.deadLetterQueue,
          }),
        ],
      });
    } else if ('tableStream' in job.trigger) {
      this.streamReader(job.trigger, table, changeBus, jobs);
    } else {
      // Handed records by the StreamRouter: Lambda retries a failed invocation twice, then keeps the event (its
      // records) in the dead-letter queue. Six hours: Lambda's longest for an asynchronous event.
      this.function.configureAsyncInvoke({
        retryAttempts: 2,
        maxEventAge: Duration.hours(6),
        onFailure: new SendOnlyDestination(this.deadLetterQueue),
      });
    }

    if (job.reportsBucket === 'write') {
      // Put covers the multipart calls. No Get: the e-mail links to the API, which signs downloads itself.
      this.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
          resources: [reportsBucket.arnForObjects('reports/*')],
        }),
      );
    }
    // No allowed domain: no permission to send at all. A list: every recipient (To, Cc, Bcc: `ses:Recipients`,
    // case-sensitive, hence the service's lower-cased domains) in one of them, as lib/reports/recipients.ts checks.
    if (job.sendsEmail && (emailDomains === '*' || emailDomains.length > 0)) {
      const stack = Stack.of(this);
      const identity = emailFrom.slice(emailFrom.lastIndexOf('@') + 1);
      const recipients =
        emailDomains === '*' ? {} : { 'ForAllValues:StringLike': { 'ses:Recipients': emailDomains.map((domain) => `*@${domain}`) } };
      this.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['ses:SendRawEmail'],
          resources: [
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: emailFrom }),
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
          ],
          conditions: { StringEquals: { 'ses:FromAddress': emailFrom }, ...recipients },
        }),
      );
    }
  }

  /**
   * The table stream's one event source mapping: audit-entry and feed-entry inserts, and the items of the functions
   * it hands records to; the function may publish to the change bus and invoke those functions, no more.
   */
  private streamReader(
    trigger: StreamReader,
    table: ITable,
    changeBus: IEventBus | undefined,
    jobs: ReadonlyMap<string, { function: IFunction }> | undefined,
  ): void {
    const streamArn = table.tableStreamArn;
    if (!streamArn) throw new Error("The StreamRouter reads the table's stream, but the table has none");
    if (!changeBus) throw new Error('The StreamRouter publishes change events: give the change bus');
    const routed = backgroundFunctionsRouted(jobs);
    const itemFilter = (items: Record<string, string>) =>
      FilterCriteria.filter({
        eventName: FilterRule.or('INSERT', 'MODIFY'),
        dynamodb: { NewImage: Object.fromEntries(Object.entries(items).map(([name, value]) => [name, { S: FilterRule.isEqual(value) }])) },
      });
    // A mapping rather than DynamoEventSource, whose grant adds dynamodb:ListStreams on "*": every
    // stream action here is scoped to this table's stream, and ListStreams, which IAM grants only on
    // "*", is not granted (on the stream's ARN it would grant nothing).
    this.function.addEventSourceMapping('TableStream', {
      eventSourceArn: streamArn,
      startingPosition: StartingPosition.LATEST,
      batchSize: 100,
      // A failed record is retried from (ReportBatchItemFailures), bisected, ten times, then its batch's place
      // goes to the dead-letter queue; the maintenance sweep appends the audit entries that were in it.
      reportBatchItemFailures: true,
      retryAttempts: 10,
      bisectBatchOnError: true,
      // Up to 10 batches of a shard at once; the records of one partition key stay in order in one of them, so one
      // audit shard's entries are appended, and one feed shard's published, by one batch at a time, in order.
      parallelizationFactor: 10,
      maxRecordAge: Duration.days(1),
      onFailure: new SendOnlyDeadLetterQueue(this.deadLetterQueue),
      filters: [
        FilterCriteria.filter({
          eventName: FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { type: { S: FilterRule.or(...trigger.tableStream.inserts) } } },
        }),
        ...routed.map(({ job }) => itemFilter(job.trigger.tableItems)),
      ],
    });
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        resources: [streamArn],
      }),
    );
    this.function.addToRolePolicy(new PolicyStatement({ actions: ['events:PutEvents'], resources: [changeBus.eventBusArn] }));
    this.function.addEnvironment(trigger.tableStream.busVariable, changeBus.eventBusName);
    if (routed.length > 0) {
      this.function.addToRolePolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: routed.map(({ fn }) => fn.functionArn) }),
      );
    }
    for (const { job, fn } of routed) this.function.addEnvironment(job.trigger.functionVariable, fn.functionName);
  }

  /** The event source mapping, the function's own sends, and the change rule; the rule's dead-letter queue. */
  private queueTrigger(job: BackgroundFunction, trigger: QueueTrigger, queue: Queue, changeBus?: IEventBus): Queue | undefined {
    const { batchSize, maxConcurrency } = trigger.queue;
    // Its grant is what the mapping polls with, on this queue only: ReceiveMessage, DeleteMessage,
    // ChangeMessageVisibility, GetQueueAttributes, GetQueueUrl.
    this.function.addEventSource(new SqsEventSource(queue, { batchSize, maxConcurrency, reportBatchItemFailures: true }));
    // Retries and replays: SendMessage (and SendMessageBatch, which IAM checks as SendMessage) on its own queue.
    this.function.addToRolePolicy(sendMessageStatement(queue));
    if (!trigger.changeEvents) return undefined;
    if (!changeBus) throw new Error(`${job.name} takes change events: give the change bus`);
    const deadLetters = new Queue(this, 'ChangeRuleDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: RETENTION,
    });
    new Rule(this, 'Changes', {
      description: `Puts each change event on ${job.name}'s queue`,
      eventBus: changeBus,
      eventPattern: { source: [CHANGE_EVENT_SOURCE], detailType: [CHANGE_EVENT_DETAIL_TYPE] },
      targets: [
        new SqsQueue(queue, {
          // The body is exactly {"kind":"change","change":<the audit entry>}: the event's detail, nothing of its envelope.
          message: RuleTargetInput.fromObject({ kind: 'change', change: EventField.fromPath('$.detail') }),
          // EventBridge's longest: a queue that refuses for a day (a policy or key mistake) loses nothing it can keep.
          retryAttempts: 185,
          maxEventAge: Duration.hours(24),
          deadLetterQueue: deadLetters,
        }),
      ],
    });
    return deadLetters;
  }
}

/** The functions the StreamRouter hands records to, made before it (lib/background.ts lists it after them). */
function backgroundFunctionsRouted(jobs: ReadonlyMap<string, { function: IFunction }> | undefined) {
  return backgroundFunctions.filter(isStreamRouted).map((job) => {
    const made = jobs?.get(job.name);
    if (!made) throw new Error(`The StreamRouter hands records to ${job.name}: make it first`);
    return { job, fn: made.function };
  });
}

/**
 * A stream mapping's on-failure destination with only what Lambda uses to
 * send a failed batch's record there, sqs:SendMessage; SqsDlq grants the
 * function's role GetQueueAttributes and GetQueueUrl too.
 */
class SendOnlyDeadLetterQueue implements IEventSourceDlq {
  constructor(private readonly queue: IQueue) {}

  bind(_target: IEventSourceMapping, targetHandler: IFunction): DlqDestinationConfig {
    targetHandler.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
    return { destination: this.queue.queueArn };
  }
}

/**
 * An asynchronous invocation's on-failure destination with only what Lambda uses to send a failed event there,
 * sqs:SendMessage; SqsDestination grants the function's role GetQueueAttributes and GetQueueUrl too.
 */
class SendOnlyDestination implements IDestination {
  constructor(private readonly queue: IQueue) {}

  bind(_scope: Construct, fn: IFunction, _options?: DestinationOptions): DestinationConfig {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
    return { destination: this.queue.queueArn };
  }
}
