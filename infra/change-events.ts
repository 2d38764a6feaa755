/**
 * Change events for other systems: an EventBridge Pipe reads the table's
 * stream and sends one event per change to the service's event bus. A change
 * is one transaction, which writes many items but exactly one audit entry
 * (lib/audit/context.ts), so the pipe passes only audit-entry inserts: one
 * event per change, carrying who, when, the operation and what changed.
 * Records that still fail after retries wait in a dead-letter queue.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../lib/config';

export const CHANGE_EVENT_SOURCE = SERVICE_NAME;
export const CHANGE_EVENT_DETAIL_TYPE = 'Change recorded';

/** The event's detail: the audit entry, as GET /v2/audit shows it. */
const DETAIL_TEMPLATE = `{
  "id": <$.dynamodb.NewImage.id.S>,
  "at": <$.dynamodb.NewImage.at.S>,
  "actor": <$.dynamodb.NewImage.actor.S>,
  "operation": <$.dynamodb.NewImage.operation.S>,
  "resource_type": <$.dynamodb.NewImage.resource_type.S>,
  "resource_id": <$.dynamodb.NewImage.resource_id.S>,
  "changes": <$.dynamodb.NewImage.changes>
}`;

export class ChangeEvents extends Construct {
  readonly bus: EventBus;
  readonly deadLetterQueue: Queue;
  readonly pipe: CfnPipe;

  constructor(scope: Construct, id: string, { table }: { table: ITable }) {
    super(scope, id);
    if (!table.tableStreamArn) throw new Error('ChangeEvents needs a table with a stream');
    this.bus = new EventBus(this, 'Bus', { description: 'One event per change made through the department admin API' });
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    const role = new Role(this, 'PipeRole', { assumedBy: new ServicePrincipal('pipes.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({
        // Not ListStreams: IAM grants it only on "*", and on the stream's ARN it would grant nothing.
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
        resources: [table.tableStreamArn],
      }),
    );
    role.addToPolicy(new PolicyStatement({ actions: ['events:PutEvents'], resources: [this.bus.eventBusArn] }));
    role.addToPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] }));

    this.pipe = new CfnPipe(this, 'Pipe', {
      description: 'Audit-entry inserts of the table stream, as change events',
      roleArn: role.roleArn,
      source: table.tableStreamArn,
      sourceParameters: {
        dynamoDbStreamParameters: {
          startingPosition: 'LATEST',
          batchSize: 10,
          maximumRetryAttempts: 5,
          maximumRecordAgeInSeconds: 24 * 3600,
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        },
        filterCriteria: {
          filters: [{ pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['audit'] } } } }) }],
        },
      },
      target: this.bus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: { source: CHANGE_EVENT_SOURCE, detailType: CHANGE_EVENT_DETAIL_TYPE },
        inputTemplate: DETAIL_TEMPLATE,
      },
    });
  }
}
