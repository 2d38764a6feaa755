/**
 * The execution roles of the route functions, shared by functions whose
 * grants are identical (every read route holds the same table actions, and
 * so on). One role per function would cost two resources a function (role
 * and policy); with 60 functions and HEAD and `.json` route keys the stack
 * would pass CloudFormation's 500 resources. Least privilege is unchanged:
 * a role holds exactly what each of its functions is granted, no more (the
 * grants are the key that shares it), which test/infra asserts per function.
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { TableStatement } from './access';

/** What a route function may do besides writing its own logs. */
export interface FunctionGrants {
  /** What it may and may not do on the table (infra/access.ts). */
  table: readonly TableStatement[];
  /** Read report objects (to sign download links). */
  readsReports?: boolean;
  /** The queue it may put messages on (sqs:SendMessage, which SendMessageBatch needs too), and no other SQS action. */
  sendsTo?: IQueue;
}

export class FunctionRoles extends Construct {
  private readonly roles = new Map<string, Role>();

  constructor(
    scope: Construct,
    id: string,
    private readonly resources: { table: ITable; reportsBucket: IBucket },
  ) {
    super(scope, id);
  }

  /** Every role made, for the acknowledgements of infra/nag.ts. */
  get all(): Role[] {
    return [...this.roles.values()];
  }

  /** The role for these grants: made on first use, shared after. */
  roleFor(grants: FunctionGrants): IRole {
    const key = JSON.stringify([grants.table, grants.readsReports ?? false, grants.sendsTo?.node.path ?? null]);
    const existing = this.roles.get(key);
    if (existing) return existing;
    const role = new Role(this, `Role${this.roles.size + 1}`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    const { table, reportsBucket } = this.resources;
    for (const statement of tablePolicyStatements(table, grants.table)) role.addToPolicy(statement);
    // A signed link works only if its signer may read the object.
    if (grants.readsReports)
      role.addToPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [reportsBucket.arnForObjects('reports/*')] }));
    if (grants.sendsTo) role.addToPolicy(sendMessageStatement(grants.sendsTo));
    this.roles.set(key, role);
    return role;
  }
}

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

/** sqs:SendMessage on one queue: not `grantSendMessages`, which adds GetQueueAttributes and GetQueueUrl that a sender by URL never calls. */
export function sendMessageStatement(queue: IQueue): PolicyStatement {
  return new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] });
}
