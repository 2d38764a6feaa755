/**
 * A 5xx answer says nothing about its cause; the log line of the request
 * must: the error's name, message, code and cancellation reasons, its causes
 * included (lib/http/problem.ts logServerError), in both answer formats.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseBusyError } from '../../lib/db/errors';
import { operation, type HttpEvent } from '../../lib/http/operation';
import { scimOperation } from '../../lib/http/scim';
import { log } from '../../lib/log';
import { Problem } from '../../lib/problems';
import type { OperationName } from '../../lib/routes';

vi.mock('../../lib/log', () => ({ log: vi.fn(async () => {}), useLambdaContext: () => {} }));
const logged = vi.mocked(log);
afterEach(() => logged.mockClear());

const contextWith = (remainingMs: number) =>
  ({ awsRequestId: 'aws-req-1', functionName: 'test', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

const event = (extra: Record<string, unknown> = {}) =>
  ({
    version: '2.0',
    rawPath: '/things',
    rawQueryString: '',
    headers: {},
    requestContext: { requestId: 'req-503', authorizer: { jwt: { claims: { sub: 'alice' }, scopes: [] } }, ...extra },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

/** Not routes of the table: the pipelines do not care which operation they run. */
const T1 = 'T1' as OperationName;

/** What the transaction layer throws once throttling outlasted its retries, with the last cancellation as its cause. */
const throttled = () =>
  new DatabaseBusyError('The database is throttling requests; retry the request shortly.', {
    cause: new TransactionCanceledException({
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ThrottlingError]',
      $metadata: { httpStatusCode: 400, attempts: 1 },
      CancellationReasons: [
        { Code: 'None' },
        { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity', Item: { email: { S: 'ada@example.com' } } },
      ],
    }),
  });

describe('a 503 logs the error it stands for', () => {
  it('problem+json: the error, its cause and the cancellation reasons, none of it in the body', async () => {
    const handler = operation(T1, {}, async () => {
      throw throttled();
    });
    const response = await handler(event(), contextWith(10_000));
    expect(response.statusCode).toBe(503);
    expect(response.body).not.toMatch(/ThrottlingError|TransactionCanceled|Cancellation/);

    expect(logged).toHaveBeenCalledTimes(1);
    const [level, message, fields] = logged.mock.calls[0];
    expect(level).toBe('error');
    expect(message).toBe('Answered 503: a dependency stayed busy or failing');
    expect(fields).toMatchObject({
      requestId: 'req-503',
      status: 503,
      reason: {
        name: 'DatabaseBusyError',
        message: 'The database is throttling requests; retry the request shortly.',
        cause: {
          name: 'TransactionCanceledException',
          message: expect.stringContaining('ThrottlingError'),
          http_status: 400,
          cancellation_reasons: ['None', 'ThrottlingError: Throughput exceeds the current capacity'],
        },
      },
    });
    // A reason's stored item is data, not a cause.
    expect(JSON.stringify(fields.reason)).not.toContain('ada@example.com');
  });

  it('problem+json: running out of the function time is named as such', async () => {
    const handler = operation(T1, {}, () => new Promise<never>(() => {}));
    const response = await handler(event(), contextWith(30));
    expect(response.statusCode).toBe(503);
    expect(logged).toHaveBeenCalledTimes(1);
    const [, message, fields] = logged.mock.calls[0];
    expect(message).toBe('Answered 503: the function ran out of time');
    expect(fields).toMatchObject({ status: 503, reason: { name: 'TimeoutError', cause: { package: '@middy/core' } } });
  });

  it('SCIM: the same log line', async () => {
    const handler = scimOperation(T1, async () => {
      throw throttled();
    });
    const response = await handler(event({ authorizer: { lambda: { tokenId: 'tok' } } }), contextWith(10_000));
    expect(response.statusCode).toBe(503);
    expect(response.body).not.toMatch(/ThrottlingError|TransactionCanceled/);
    expect(logged.mock.calls[0][1]).toBe('Answered 503: a dependency stayed busy or failing');
    expect(logged.mock.calls[0][2]).toMatchObject({ reason: { cause: { cancellation_reasons: ['None', expect.any(String)] } } });
  });

  it('answers below 500 log nothing', async () => {
    const handler = operation(T1, {}, async () => {
      throw new Problem('conflict', 'busy');
    });
    expect((await handler(event(), contextWith(10_000))).statusCode).toBe(409);
    expect(logged).not.toHaveBeenCalled();
  });
});
