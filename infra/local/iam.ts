/**
 * IAM as AWS evaluates it, for the local stack and the tests: whether a
 * function's role (its statements in the synthesized template, and the AWS
 * managed policies it attaches) allows one AWS call, decided by a maintained
 * IAM simulator (@cloud-copilot/iam-simulate) rather than by rules of our
 * own. The simulator also validates the call: an action IAM does not know,
 * or a resource ARN of a type the action does not take, is an error, so a
 * mistake in how a call is described cannot pass as allowed.
 */
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { LOCAL_ACCOUNT, type LocalFunction, type PolicyStatement } from './deployment';

/** One IAM authorization: what DynamoDB, S3, SES or SQS checks for (a part of) one request. */
export interface AwsCall {
  service: 'dynamodb' | 's3' | 'ses' | 'sqs';
  /** `service:Action`, as IAM names it (TransactWriteItems is one PutItem, UpdateItem… per item). */
  action: string;
  resource: string;
  /** Request context keys, e.g. `dynamodb:LeadingKeys`, `ses:Recipients`. */
  context: Record<string, string | string[]>;
}

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied';

export interface Evaluation {
  decision: Decision;
  /** Why the simulator could not evaluate the call (the call is then refused): its validation errors. */
  invalid?: string;
}

/**
 * The AWS managed policies the stack attaches, as AWS publishes them. A role
 * that attaches another one fails here until its document is added: the check
 * never guesses what a managed policy allows.
 */
export const MANAGED_POLICIES: Readonly<Record<string, readonly PolicyStatement[]>> = {
  'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole': [
    { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'], Resource: '*' },
  ],
};

/** Every statement a function's role holds: its own policies', then its managed policies'. */
export function roleStatements(fn: Pick<LocalFunction, 'handler' | 'statements' | 'managedPolicyArns'>): PolicyStatement[] {
  const managed = fn.managedPolicyArns.flatMap((arn) => {
    const statements = MANAGED_POLICIES[arn];
    if (!statements)
      throw new Error(`${fn.handler}: its role attaches ${arn}; add that policy's document to MANAGED_POLICIES (infra/local/iam.ts)`);
    return statements;
  });
  return [...fn.statements, ...managed];
}

/** The actions (or action patterns, e.g. `logs:*`) a role's Allow statements name. */
export function grantedActions(fn: Pick<LocalFunction, 'handler' | 'statements' | 'managedPolicyArns'>): string[] {
  const actions = roleStatements(fn)
    .filter((statement) => statement.Effect === 'Allow')
    .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
  return [...new Set(actions)];
}

/** Whether an action pattern of a policy (`dynamodb:*`, `s3:Get*`) names an action; IAM compares them case-insensitively. */
export function actionMatches(pattern: string, action: string): boolean {
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`, 'i').test(action);
}

/**
 * Evaluates one call against a role's statements, in the local account (of any service: the StreamRouter's
 * EventBridge and Lambda calls, which run only on AWS, are checked this way by test/unit/stream-router.test.ts).
 */
export async function evaluateCall(
  statements: readonly PolicyStatement[],
  call: Omit<AwsCall, 'service'> & { service?: string },
  roleName = 'local',
): Promise<Evaluation> {
  const simulation: Simulation = {
    identityPolicies: [{ name: roleName, policy: { Version: '2012-10-17', Statement: statements } }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    request: {
      action: call.action,
      principal: `arn:aws:iam::${LOCAL_ACCOUNT}:role/${roleName}`,
      resource: { resource: call.resource, accountId: LOCAL_ACCOUNT },
      contextVariables: call.context,
    },
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error') return { decision: 'ImplicitlyDenied', invalid: JSON.stringify(result.errors) };
  return { decision: result.overallResult as Decision };
}
