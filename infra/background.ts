/**
 * A background function on its schedule (lib/background.ts): an EventBridge
 * rule invokes it with retries, and an invocation that still fails lands in
 * an encrypted dead-letter queue whose depth raises an alarm.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BackgroundFunction } from '../lib/background';
import { TABLE_ACTIONS } from './access';
import { ServiceFunction } from './service-function';

export interface BackgroundJobProps {
  job: BackgroundFunction;
  projectRoot: string;
  environment: Record<string, string>;
  table: ITable;
}

export class BackgroundJob extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, { job, projectRoot, environment, table }: BackgroundJobProps) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Function', {
      handler: job.handler,
      description: job.summary,
      tableActions: TABLE_ACTIONS.write,
      projectRoot,
      environment,
      table,
    }).function;
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    new Rule(this, 'Schedule', {
      description: `Runs ${job.name} every ${job.everyMinutes} minute(s)`,
      schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
      targets: [
        new LambdaFunction(this.function, {
          retryAttempts: 2,
          // A run older than its period is superseded by the next one.
          maxEventAge: Duration.minutes(Math.max(job.everyMinutes, 1)),
          deadLetterQueue: this.deadLetterQueue,
        }),
      ],
    });
  }
}
