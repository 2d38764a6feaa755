/**
 * The end-of-run report of AWS calls (infra/local/call-record.ts): what each
 * role granted and no function used, and which of that infra/unused-grants.ts
 * justifies, for which functions.
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
      grants('createUser', 'WriterRole', [{ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' }, sendToQueue]),
      grants('updateUser', 'WriterRole', [{ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' }, sendToQueue]),
    ],
    calls: [
      call('reportWorker', 'WorkerRole', 'dynamodb:GetItem'),
      call('reportWorker', 'WorkerRole', 'dynamodb:Query', 'ImplicitlyDenied'),
      call('updateUser', 'WriterRole', 'dynamodb:PutItem'),
    ],
  };
  const report = callReport(record);
  const role = (id: string) => report.roles.find((entry) => entry.roleLogicalId === id)!;

  it('counts an action as used by any function of the role, and a pattern as used by any action it names', () => {
    expect(role('WriterRole')).toMatchObject({ handlers: ['createUser', 'updateUser'], used: ['dynamodb:PutItem'] });
    expect(role('WriterRole').unjustified).not.toContain('dynamodb:*');
  });

  it('does not count a refused call as a use, and lists it', () => {
    expect(role('WorkerRole').unjustified).toEqual(['dynamodb:Query']);
    expect(report.denied).toEqual([expect.objectContaining({ handler: 'reportWorker', action: 'dynamodb:Query' })]);
  });

  it('applies a reason to the roles of the functions it names only', () => {
    expect(role('WorkerRole').justified.map((entry) => entry.action)).toContain('sqs:SendMessage');
    expect(role('WriterRole').unjustified).toEqual(['sqs:SendMessage']);
    for (const id of ['WorkerRole', 'WriterRole']) {
      expect(role(id).justified.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents']),
      );
    }
  });
});
