/**
 * The end-of-run report of AWS calls (infra/local/call-record.ts): what each
 * set of identical grants granted and no function holding it used, and which
 * of that infra/unused-grants.ts justifies, for which functions.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../infra/local/aws-calls';
import { callReport } from '../../infra/local/call-record';
import type { PolicyStatement } from '../../infra/local/deployment';

const LOGGING = 'arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole';
const grants = (handler: string, roleLogicalId: string, statements: PolicyStatement[]) => ({
  handler,
  logicalId: `${handler}Function`,
  roleLogicalId,
  statements,
  managedPolicyArns: [LOGGING],
});
const call = (handler: string, roleLogicalId: string, action: string, decision: RecordedCall['decision'] = 'Allowed'): RecordedCall => ({
  handler,
  logicalId: `${handler}Function`,
  roleLogicalId,
  service: 'dynamodb',
  action,
  resource: 'arn:aws:dynamodb:us-east-1:000000000000:table/t',
  context: {},
  decision,
});

describe('the report of AWS calls', () => {
  const sendToQueue: PolicyStatement = { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:us-east-1:000000000000:q' };
  const record = {
    functions: [
      grants('reportWorker', 'WorkerRole', [
        { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: '*' },
        sendToQueue,
      ]),
      grants('createUser', 'CreateUserRole', [{ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' }, sendToQueue]),
      grants('updateUser', 'UpdateUserRole', [{ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' }, sendToQueue]),
    ],
    calls: [
      call('reportWorker', 'WorkerRole', 'dynamodb:GetItem'),
      call('reportWorker', 'WorkerRole', 'dynamodb:Query', 'ImplicitlyDenied'),
      call('updateUser', 'UpdateUserRole', 'dynamodb:PutItem'),
    ],
  };
  const report = callReport(record);
  const role = (id: string) => report.roles.find((entry) => entry.roleLogicalIds.includes(id))!;

  it('counts an action as used by any function holding the same grants, and a pattern as used by any action it names', () => {
    expect(role('CreateUserRole')).toBe(role('UpdateUserRole'));
    expect(role('CreateUserRole')).toMatchObject({
      roleLogicalIds: ['CreateUserRole', 'UpdateUserRole'],
      handlers: ['createUser', 'updateUser'],
      used: ['dynamodb:PutItem'],
    });
    expect(role('CreateUserRole').unjustified).not.toContain('dynamodb:*');
  });

  it('does not count a refused call as a use, and lists it', () => {
    expect(role('WorkerRole').unjustified).toEqual(['dynamodb:Query']);
    expect(report.denied).toEqual([expect.objectContaining({ handler: 'reportWorker', action: 'dynamodb:Query' })]);
  });

  it('applies a reason to the roles of the functions it names only', () => {
    expect(role('WorkerRole').justified.map((entry) => entry.action)).toContain('sqs:SendMessage');
    expect(role('CreateUserRole').unjustified).toEqual(['sqs:SendMessage']);
    for (const id of ['WorkerRole', 'CreateUserRole']) {
      expect(role(id).justified.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents']),
      );
    }
  });
});
