/**
 * A background function (lib/background.ts) with its trigger: a schedule
 * (EventBridge rule with retries) or the table's stream filtered to the items
 * it works on (retries, bisecting, no record older than a day). Either way,
 * work that still fails lands in an encrypted dead-letter queue whose depth
 * raises an alarm.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  FilterCriteria,
  FilterRule,
  StartingPosition,
  type DlqDestinationConfig,
  type IEventSourceDlq,
  type IEventSourceMapping,
  type IFunction,
} from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BackgroundFunction } from '../lib/background';
import { tableStatementsForJob } from './access';
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
}

export class BackgroundJob extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;

  constructor(
    scope: Construct,
    id: string,
    { job, projectRoot, environment, table, reportsBucket, emailFrom, emailDomains }: BackgroundJobProps,
  ) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Function', {
      handler: job.handler,
      description: job.summary,
      tableStatements: tableStatementsForJob(job),
      projectRoot,
      environment,
      table,
      timeout: job.timeoutSeconds === undefined ? undefined : Duration.seconds(job.timeoutSeconds),
    }).function;
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    if ('everyMinutes' in job.trigger) {
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
    } else {
      const image = Object.fromEntries(
        Object.entries(job.trigger.tableItems).map(([name, value]) => [name, { S: FilterRule.isEqual(value) }]),
      );
      const streamArn = table.tableStreamArn;
      if (!streamArn) throw new Error(`${job.name} reads the table's stream, but the table has none`);
      // A mapping rather than DynamoEventSource, whose grant adds dynamodb:ListStreams on "*": every
      // stream action here is scoped to this table's stream, and ListStreams, which IAM grants only on
      // "*", is not granted (on the stream's ARN it would grant nothing).
      this.function.addEventSourceMapping('TableStream', {
        eventSourceArn: streamArn,
        startingPosition: StartingPosition.LATEST,
        batchSize: 10,
        retryAttempts: 2,
        bisectBatchOnError: true,
        maxRecordAge: Duration.days(1),
        onFailure: new SendOnlyDeadLetterQueue(this.deadLetterQueue),
        filters: [FilterCriteria.filter({ eventName: FilterRule.or('INSERT', 'MODIFY'), dynamodb: { NewImage: image } })],
      });
      this.function.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
          resources: [streamArn],
        }),
      );
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
