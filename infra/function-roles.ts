/**
 * The IAM statements of a function's role, built from what it is granted:
 * its table statements (infra/access.ts), the report objects it may read,
 * the queue it may send to. Every function has a role of its own (the one
 * NodejsFunction makes), holding exactly these and its logs and traces;
 * test/infra asserts each function's actions.
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { TableStatement } from './access';

/**
 * The IAM statements of table statements. Item-scoped ones name the base
 * table only: their actions never read an index, and a `dynamodb:LeadingKeys`
 * condition is about the table's partition key.
 */
export function tablePolicyStatements(table: ITable, statements: readonly TableStatement[]): PolicyStatement[] {
  return statements.map(({ effect, actions, items }) =>
    items === undefined
      ? new PolicyStatement({
          effect: effect === 'Allow' ? Effect.ALLOW : Effect.DENY,
          actions: [...actions],
          resources: [table.tableArn, `${table.tableArn}/index/*`],
        })
      : new PolicyStatement({
          effect: effect === 'Allow' ? Effect.ALLOW : Effect.DENY,
          actions: [...actions],
          resources: [table.tableArn],
          conditions: {
            [effect === 'Allow' ? 'ForAllValues:StringLike' : 'ForAnyValue:StringLike']: {
              'dynamodb:LeadingKeys': items.map((prefix) => `${prefix}*`),
            },
          },
        }),
  );
}

/** s3:GetObject on report objects: a signed download link works only if its signer may read the object. */
export function readReportsStatement(bucket: IBucket): PolicyStatement {
  return new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects('reports/*')] });
}

/** sqs:SendMessage on one queue: not `grantSendMessages`, which adds GetQueueAttributes and GetQueueUrl that a sender by URL never calls. */
export function sendMessageStatement(queue: IQueue): PolicyStatement {
  return new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] });
}
