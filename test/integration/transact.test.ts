/** Retry and give-up behaviour of transactWrite, with cancellations injected through the SDK middleware stack. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { transactWrite } from '../../lib/db/transact';
import { createDepartment } from '../../lib/departments/departments';
import { errorToProblem } from '../../lib/http/problem';
import { Problem } from '../../lib/problems';

/** The problem the API answers for an error: status and slug. */
const answered = (error: unknown) => {
  const response = errorToProblem(error, 'test');
  return { status: response.statusCode, type: JSON.parse(response.body!).type as string };
};

const ctx = { actor: 'test', operationId: 'test', requestId: 'test' };
const MIDDLEWARE = 'inject-cancellation';

/** Fails the next `times` TransactWriteItems calls with the given cancellation codes. */
function failTransactions(times: number, codes: string[]) {
  let remaining = times;
  let calls = 0;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') {
        calls++;
        if (remaining-- > 0) {
          throw new TransactionCanceledException({
            message: 'injected',
            $metadata: {},
            CancellationReasons: codes.map((Code) => ({ Code })),
          });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: MIDDLEWARE },
  );
  return { calls: () => calls };
}

afterEach(() => {
  db().middlewareStack.remove(MIDDLEWARE);
});

describe('transactWrite', () => {
  it('retries transaction conflicts and succeeds once they clear', async () => {
    const injected = failTransactions(3, ['TransactionConflict', 'None']);
    const department = await createDepartment(ctx, { id: 'retry-ok', name: 'Retry' });
    expect(department.id).toBe('retry-ok');
    expect(injected.calls()).toBe(4);
  });

  it('answers 409 conflict after a bounded number of conflicts, having written nothing', async () => {
    const injected = failTransactions(1000, ['None', 'TransactionConflict']);
    const error = await createDepartment(ctx, { id: 'retry-conflict', name: 'Busy' }).catch((e) => e);
    expect(answered(error)).toEqual({ status: 409, type: '/problems/conflict' });
    expect(injected.calls()).toBe(6);
  });

  it('answers 503 unavailable when throttling never clears', async () => {
    failTransactions(1000, ['ThrottlingError']);
    const error = await createDepartment(ctx, { id: 'retry-throttle', name: 'Throttled' }).catch((e) => e);
    expect(answered(error)).toEqual({ status: 503, type: '/problems/unavailable' });
  });

  it('does not retry a failed condition', async () => {
    await createDepartment(ctx, { id: 'twice', name: 'Twice' });
    const injected = failTransactions(0, []);
    const error = await createDepartment(ctx, { id: 'twice', name: 'Twice' }).catch((e) => e);
    expect((error as Problem).slug).toBe('conflict');
    expect(injected.calls()).toBe(1);
  });

  it('refuses more than 100 items before calling DynamoDB', async () => {
    await expect(transactWrite(Array.from({ length: 101 }, () => ({ item: {} as never })))).rejects.toThrow(/exceeds 100/);
  });
});
