/**
 * Faults of DynamoDB, S3 and SES, injected through the SDK clients'
 * middleware stacks, and what callers get.
 *
 * Two places to inject:
 * - `inside`: in the SDK's retry loop (deserialize step), as a failed
 *   attempt. The SDK retries throttling, 5xx and timeouts itself, so a
 *   transient fault there must be invisible to the caller.
 * - `outside`: after the SDK has given up (initialize step), as the error the
 *   service's own code receives. The service retries what is safe
 *   (lib/db/transact.ts: transaction conflicts and throttling), and when it
 *   gives up answers a clear problem: 409 `conflict` for conflicts, 503
 *   `unavailable` for throttling, server faults and timeouts; never a 500.
 *   A `lostAnswer` fault lets the call through and then fails it: the write
 *   happened, the caller does not know.
 *
 * After every scenario the invariant checker finds nothing half-applied (a
 * bulk move interrupted by a fault is finished by the healer once its lease
 * has passed, as the maintenance function would).
 *
 * Requests go through a gateway of this file's own (no background jobs, so
 * nothing else calls DynamoDB) with the client of test/support/api.ts, which
 * checks every answer against the OpenAPI document.
 */
import { InternalServerError, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3 } from '../../lib/aws/s3';
import { ses } from '../../lib/aws/ses';
import { db } from '../../lib/db/client';
import { BULK_LEASE_MS } from '../../lib/departments/bulk-move/driver';
import { healBulkMoves } from '../../lib/departments/bulk-move/heal';
import { createDepartment } from '../../lib/departments/departments';
import { addUsersToDepartment } from '../../lib/departments/bulk-membership';
import { createUser } from '../../lib/users/commands';
import { getUser } from '../../lib/users/user';
import { claimReport, createReport, findReport, WORKER_TIMEOUT_SECONDS, repairReports } from '../../lib/reports/jobs';
import { runReport } from '../../lib/reports/worker';
import { Api, READ_TOKEN, startTestGateway, WRITE_TOKEN } from '../support/api';
import { invariantViolations, scanTable } from '../support/invariants';
import { bulkParts } from '../support/bulk-parts';
import { unique } from '../support/fixtures';

// --- the injector ---------------------------------------------------------------

type Stage = 'inside' | 'outside';

interface Fault {
  client: 'dynamodb' | 's3' | 'ses';
  stage: Stage;
  /** Matches the SDK command name, e.g. /^TransactWriteItems/. */
  command: RegExp;
  /** Matching calls let through before the fault starts. */
  skip?: number;
  /** Calls that fail, then the fault is spent (Infinity: never clears). */
  times: number;
  error: () => Error;
  /** The call goes through and its answer is lost. */
  lostAnswer?: boolean;
}

let faults: Fault[] = [];
/** One line per injected failure: `<stage> <command> <error name>`. */
const injected: string[] = [];

type Client = { middlewareStack: { add: (...args: any[]) => void } };

function installInjector(client: Client, name: Fault['client']) {
  for (const stage of ['inside', 'outside'] as const) {
    client.middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
        const command = context.commandName ?? '';
        // Every matching fault counts every call; the first that is due fires.
        let fault: Fault | undefined;
        for (const candidate of faults) {
          if (candidate.client !== name || candidate.stage !== stage || !candidate.command.test(command) || candidate.times <= 0) continue;
          if (candidate.skip && candidate.skip > 0) candidate.skip--;
          else fault ??= candidate;
        }
        if (!fault) return next(args);
        fault.times--;
        const error = fault.error();
        injected.push(`${stage} ${command} ${error.name}`);
        if (fault.lostAnswer) await next(args);
        throw error;
      },
      stage === 'inside' ? { step: 'deserialize', name: `faults-${name}-inside` } : { step: 'initialize', name: `faults-${name}-outside` },
    );
  }
}
installInjector(db() as unknown as Client, 'dynamodb');
installInjector(s3() as unknown as Client, 's3');
installInjector(ses() as unknown as Client, 'ses');

const inject = (...added: Fault[]) => faults.push(...added);
afterEach(() => {
  faults = [];
  injected.length = 0;
});

// The errors, shaped as the SDK raises them.
const metadata = (httpStatusCode: number) => ({ httpStatusCode, requestId: 'injected', attempts: 1, totalRetryDelay: 0 });
const ERRORS: Record<string, () => Error> = {
  ProvisionedThroughputExceededException: () =>
    new ProvisionedThroughputExceededException({
      message: 'The level of configured provisioned throughput for the table was exceeded.',
      $metadata: metadata(400),
    }),
  ThrottlingException: () =>
    Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ThrottlingException',
      $fault: 'client',
      $metadata: metadata(400),
    }),
  InternalServerError: () => new InternalServerError({ message: 'Internal server error', $metadata: metadata(500) }),
  TimeoutError: () => Object.assign(new Error('Connection timed out after 1000 ms'), { name: 'TimeoutError' }),
  RequestTimeout: () =>
    Object.assign(new Error('Request timed out'), { name: 'RequestTimeout', $fault: 'client', $metadata: metadata(408) }),
  ECONNRESET: () => Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' }),
};
const conflictError = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]',
    $metadata: metadata(400),
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });
const throttledTransactionError = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled [ThrottlingError]',
    $metadata: metadata(400),
    CancellationReasons: [{ Code: 'ThrottlingError' }],
  });

// --- the service ------------------------------------------------------------------

let gateway: Awaited<ReturnType<typeof startTestGateway>>;
const api = new Api('');
beforeAll(async () => {
  gateway = await startTestGateway({
    tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
    inProcess: 'injects faults through the SDK client',
  });
  (api as { baseUrl: string }).baseUrl = gateway.url;
});
afterAll(async () => {
  await gateway?.close();
});

const ctx = { actor: 'test', operationId: 'setup', requestId: 'test' };
const afterLease = () => Date.now() + BULK_LEASE_MS + 1000;
const departmentOf = async (userId: string) => (await getUser(userId)).department_id;

/** An answer that gives up: the problem it names, nothing about the cause. */
function expectProblem(response: { status: number; body: any; text: string; headers: Headers }, status: number, slug: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.body).toMatchObject({ type: `/problems/${slug}`, status });
  expect(response.text).not.toMatch(/Exception|Throttl|Timeout|ECONN|InternalServerError|DynamoDB|at \//);
}

// --- one membership change (E2) -------------------------------------------------

describe('DynamoDB faults on one membership change (E2)', () => {
  let from: string;
  let to: string;
  let userId: string;
  beforeAll(async () => {
    from = (await createDepartment(ctx, { id: unique('from'), name: unique('From ') })).id;
    to = (await createDepartment(ctx, { id: unique('to'), name: unique('To ') })).id;
  });
  /** A fresh user in `from` for each scenario. */
  const memberOfFrom = async () => {
    userId = unique('u');
    await createUser(ctx, { id: userId, email: `${userId}@example.com`, last_name: 'Fault' });
    await addUsersToDepartment(ctx, from, [userId]);
    return userId;
  };
  const move = () => api.post(`/v2/departments/${to}/users/${userId}`);

  it.each(['ProvisionedThroughputExceededException', 'InternalServerError', 'TimeoutError'])(
    'hides a transient %s: the SDK retries it and the move answers 200',
    async (name) => {
      await memberOfFrom();
      inject({ client: 'dynamodb', stage: 'inside', command: /^TransactWriteItems/, times: 1, error: ERRORS[name] });
      const response = await move();
      expect(response.status, response.text).toBe(200);
      expect(injected).toEqual([`inside TransactWriteItemsCommand ${name}`]);
      expect(await departmentOf(userId)).toBe(to);
      expect(await invariantViolations()).toEqual([]);
    },
  );

  it('retries transaction conflicts and throttled transactions, and answers 200 once they clear', async () => {
    await memberOfFrom();
    inject(
      { client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, times: 2, error: conflictError },
      { client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, times: 1, error: throttledTransactionError },
    );
    const response = await move();
    expect(response.status, response.text).toBe(200);
    expect(injected).toHaveLength(3);
    expect(await departmentOf(userId)).toBe(to);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 409 conflict when conflicts never clear, and changes nothing', async () => {
    await memberOfFrom();
    inject({ client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, times: Infinity, error: conflictError });
    expectProblem(await move(), 409, 'conflict');
    expect(injected.length).toBeGreaterThan(1); // retried before giving up
    faults = [];
    expect(await departmentOf(userId)).toBe(from);
    expect(await invariantViolations()).toEqual([]);
  });

  it.each(Object.keys(ERRORS))('answers 503 when %s outlasts the retries, and changes nothing', async (name) => {
    await memberOfFrom();
    inject({ client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, times: Infinity, error: ERRORS[name] });
    expectProblem(await move(), 503, 'unavailable');
    faults = [];
    expect(await departmentOf(userId)).toBe(from);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 503 when the answer of a committed move is lost; the move counts once and a retry answers 200', async () => {
    await memberOfFrom();
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^TransactWriteItems/,
      times: 1,
      error: ERRORS.TimeoutError,
      lostAnswer: true,
    });
    expectProblem(await move(), 503, 'unavailable');
    expect(await departmentOf(userId)).toBe(to);
    expect(await invariantViolations()).toEqual([]);
    const retried = await move();
    expect(retried.status).toBe(200);
    expect(retried.body.department_id).toBe(to);
    expect(await invariantViolations()).toEqual([]);
  });

  it('answers 503 to reads when a read outlasts the retries', async () => {
    await memberOfFrom();
    inject({ client: 'dynamodb', stage: 'outside', command: /^GetItem/, times: Infinity, error: ERRORS.InternalServerError });
    expectProblem(await api.get(`/v2/users/${userId}`), 503, 'unavailable');
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^Query/,
      times: Infinity,
      error: ERRORS.ProvisionedThroughputExceededException,
    });
    expectProblem(await api.get('/v2/departments/users?count=5'), 503, 'unavailable');
  });

  it('answers 503 when the idempotency record cannot be saved, and the same key works once the fault clears', async () => {
    await memberOfFrom();
    const key = unique('key-');
    inject({ client: 'dynamodb', stage: 'outside', command: /^PutItem/, times: Infinity, error: ERRORS.ThrottlingException });
    expectProblem(
      await api.post(`/v2/departments/${to}/users/${userId}`, undefined, { headers: { 'idempotency-key': key } }),
      503,
      'unavailable',
    );
    faults = [];
    expect(await departmentOf(userId)).toBe(from);
    const response = await api.post(`/v2/departments/${to}/users/${userId}`, undefined, { headers: { 'idempotency-key': key } });
    expect(response.status, response.text).toBe(200);
    expect(await invariantViolations()).toEqual([]);
  });
});

// --- a bulk move (E3) of 200 users: faults between its chunks --------------------

describe('DynamoDB faults between the chunks of a bulk move (E3 of 200 users)', () => {
  const USERS = 200;
  let userIds: string[] = [];

  beforeAll(async () => {
    const sources = [];
    for (let i = 0; i < 2; i++) sources.push((await createDepartment(ctx, { id: unique('src'), name: unique('Source ') })).id);
    for (let i = 0; i < USERS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, async (_, j) => {
          const id = unique('b');
          await createUser(ctx, {
            id,
            email: `${id}@example.com`,
            last_name: 'Bulk',
            activated: j % 2 === 0,
            account_role: j % 3 === 0 ? 'admin' : 'member',
          });
          return id;
        }),
      );
      userIds.push(...batch);
    }
    for (const [i, source] of sources.entries()) {
      await addUsersToDepartment(
        ctx,
        source,
        userIds.filter((_, j) => j % sources.length === i),
      );
    }
  }, 120_000);

  /** A fresh target department with a quota, and where each user is now. */
  async function prepare() {
    const target = (await createDepartment(ctx, { id: unique('tgt'), name: unique('Target ') })).id;
    expect((await api.put(`/v2/departments/${target}/quotas`, { name: 'users', limit: USERS })).status).toBe(200);
    const before = new Map(await Promise.all(userIds.map(async (id) => [id, await departmentOf(id)] as const)));
    return { target, before };
  }
  const moveAll = (target: string) => api.post(`/v2/departments/${target}/users`, { user_ids: userIds });
  const openMoves = async () => (await scanTable()).filter((item) => String(item.pk).startsWith('BULK#') || item.bulk_lock);
  const departmentsNow = async () => new Map(await Promise.all(userIds.map(async (id) => [id, await departmentOf(id)] as const)));

  // 200 users from 2 departments: reserve, a hold per part (the last commits), an apply per part, finish.
  const parts = bulkParts({ users: USERS, lastName: 'Bulk', from: ['source0', 'source1'], target: 'target' });
  const commit = 1 + parts; // the transaction that commits, counted from 1
  it('retries a conflict at a hold, a conflict at an apply and a throttled apply, and answers 200', async () => {
    const { target } = await prepare();
    inject(
      { client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, skip: 2, times: 1, error: conflictError },
      { client: 'dynamodb', stage: 'outside', command: /^TransactWriteItems/, skip: commit + 1, times: 1, error: conflictError },
      {
        client: 'dynamodb',
        stage: 'inside',
        command: /^TransactWriteItems/,
        skip: commit + 2,
        times: 1,
        error: ERRORS.ProvisionedThroughputExceededException,
      },
    );
    const response = await moveAll(target);
    expect(response.status, response.text).toBe(200);
    expect(injected).toHaveLength(3);
    expect(new Set((await departmentsNow()).values())).toEqual(new Set([target]));
    expect(await openMoves()).toEqual([]);
    expect(await invariantViolations()).toEqual([]);
  }, 60_000);

  it('throttling that never clears before the commit point: 503, a retry meanwhile gets 409, the healer rolls it back', async () => {
    const { target, before } = await prepare();
    // From the second hold on, every transaction is throttled (the rollback's too).
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^TransactWriteItems/,
      skip: 2,
      times: Infinity,
      error: ERRORS.ThrottlingException,
    });
    expectProblem(await moveAll(target), 503, 'unavailable');
    faults = [];
    // Nothing half-applied: counters exact (the reservation included), every user where it was or held.
    expect(await invariantViolations()).toEqual([]);
    expect(await departmentsNow()).toEqual(before);
    expectProblem(await moveAll(target), 409, 'conflict'); // its users are held until the heal

    expect(await healBulkMoves(afterLease())).toBe(1);
    expect(await openMoves()).toEqual([]);
    expect(await departmentsNow()).toEqual(before);
    expect(await invariantViolations()).toEqual([]);
  }, 60_000);

  it('an internal error that never clears after the commit point: 202 (committed), the healer rolls it forward', async () => {
    const { target } = await prepare();
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^TransactWriteItems/,
      skip: commit + 1,
      times: Infinity,
      error: ERRORS.InternalServerError,
    });
    const accepted = await moveAll(target);
    faults = [];
    // Committed, so never a 5xx: the move completes in the background (lib/slow-changes.ts).
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body).toEqual({ status: 'applying', resource: `/v2/departments/${target}` });
    expect(await invariantViolations()).toEqual([]);

    expect(await healBulkMoves(afterLease())).toBe(1);
    expect(await openMoves()).toEqual([]);
    expect(new Set((await departmentsNow()).values())).toEqual(new Set([target]));
    expect(await invariantViolations()).toEqual([]);
  }, 60_000);

  it('the answer of the commit is lost (a timeout): the driver finds it committed and finishes, 200', async () => {
    const { target } = await prepare();
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^TransactWriteItems/,
      skip: commit - 1,
      times: 1,
      error: ERRORS.TimeoutError,
      lostAnswer: true,
    });
    const response = await moveAll(target);
    expect(response.status, response.text).toBe(200);
    expect(injected).toEqual(['outside TransactWriteItemsCommand TimeoutError']);
    expect(await openMoves()).toEqual([]);
    expect(new Set((await departmentsNow()).values())).toEqual(new Set([target]));
    expect(await invariantViolations()).toEqual([]);
  }, 60_000);
});

// --- the report worker: S3, SES and DynamoDB faults ------------------------------------

describe('faults in the report worker', () => {
  const reportCtx = { actor: 'test', operationId: 'E9', requestId: 'test' };
  const leasePassed = () => Date.now() + (WORKER_TIMEOUT_SECONDS + 120) * 1000;

  it('retries a throttled S3 upload and a throttled SES send, and e-mails the report', async () => {
    inject(
      {
        client: 's3',
        stage: 'inside',
        command: /^PutObject/,
        times: 1,
        error: () => Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $metadata: metadata(503) }),
      },
      {
        client: 'ses',
        stage: 'inside',
        command: /^SendRawEmail/,
        times: 1,
        error: () =>
          Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'Throttling', $fault: 'client', $metadata: metadata(400) }),
      },
    );
    const report = await createReport(reportCtx, 'departments', ['ops@example.com']);
    await runReport(report.id);
    expect(injected).toEqual(['inside PutObjectCommand SlowDown', 'inside SendRawEmailCommand Throttling']);
    expect(await findReport(report.id)).toMatchObject({ status: 'complete', email: { status: 'sent' } });
  });

  it('keeps the report complete and downloadable when SES throttling never clears', async () => {
    inject({
      client: 'ses',
      stage: 'outside',
      command: /^SendRawEmail/,
      times: Infinity,
      error: () =>
        Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'Throttling', $fault: 'client', $metadata: metadata(400) }),
    });
    const created = await api.post('/v2/departments/exports?email=ops@example.com');
    expect(created.status).toBe(202);
    await runReport(created.body.id);
    const report = await api.get(`/v2/departments/exports/${created.body.id}`);
    expect(report.body).toMatchObject({ status: 'complete', email: { status: 'failed' }, download_url: expect.stringMatching(/^http/) });
    expect((await api.get(`/v2/departments/exports/${created.body.id}/download`)).status).toBe(303);
  });

  it('fails the job, leaving nothing behind, when S3 keeps failing', async () => {
    inject({
      client: 's3',
      stage: 'outside',
      command: /^PutObject/,
      times: Infinity,
      error: () =>
        Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $fault: 'server', $metadata: metadata(503) }),
    });
    const report = await createReport(reportCtx, 'departments', null);
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'failed', row_count: null });
  });

  it('never loses a job whose completion cannot be recorded: maintenance retries it after its lease', async () => {
    const report = await createReport(reportCtx, 'departments', null);
    // The claim goes through; recording the outcome is throttled beyond the retries.
    inject({
      client: 'dynamodb',
      stage: 'outside',
      command: /^UpdateItem/,
      skip: 1,
      times: Infinity,
      error: ERRORS.ProvisionedThroughputExceededException,
    });
    await expect(runReport(report.id)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    faults = [];
    expect(await findReport(report.id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(await claimReport(report.id)).toBeUndefined(); // a repeated trigger does not run it twice
    expect(await repairReports(leasePassed())).toBe(1);
    await runReport(report.id);
    expect(await findReport(report.id)).toMatchObject({ status: 'complete', attempts: 2 });
  });
});
