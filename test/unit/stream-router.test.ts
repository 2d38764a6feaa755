/**
 * The StreamRouter (functions/streamRouter.ts, lib/changes/stream.ts), the table stream's one reader, on stream
 * events as Lambda sends them: feed entries published to the change bus in plain JSON, exactly as GET /v2/changes
 * gives them and in the feed's order; report jobs and rule work handed to their workers by an asynchronous invoke of
 * the worker's own stream event; failed records reported. Its EventBridge and Lambda calls run only on AWS (the
 * local stack has no stream): here they go to recording clients, and each call is checked against the router's
 * role in the synthesized template, as the local call checker checks every other call.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACCOUNT, LOCAL_REGION, resolveDeployment, synthesizeDeployment, type LocalFunction } from '../../infra/local/deployment';
import { evaluateCall, roleStatements } from '../../infra/local/iam';
import { events } from '../../lib/aws/events';
import { lambda } from '../../lib/aws/lambda';
import { STREAM_ROUTER } from '../../lib/background';
import { routeRecords } from '../../lib/changes/stream';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE } from '../../lib/config';
import { auditItem, type AuditEntry } from '../../lib/store/audit';
import { feedEntryOf, feedItem } from '../../lib/store/feed';

let router: LocalFunction;
let functions: LocalFunction[];
let handler: (event: { Records: DynamoDBRecord[] }, context: Context) => Promise<{ batchItemFailures: Array<{ itemIdentifier: string }> }>;

interface Recorded {
  command: string;
  input: any;
}
const recorded: Recorded[] = [];
/** Entries of PutEvents the fake bus refuses (by their detail's id), every time. */
let refusedIds = new Set<string>();

type Client = { middlewareStack: { add: (...args: any[]) => void } };
function record(client: Client, answer: (command: string, input: any) => Record<string, unknown>) {
  client.middlewareStack.add(
    (_next: unknown, context: { commandName?: string }) => async (args: { input: any }) => {
      const command = context.commandName ?? '';
      recorded.push({ command, input: args.input });
      return { output: { $metadata: {}, ...answer(command, args.input) }, response: {} };
    },
    { step: 'initialize', name: 'recording' },
  );
}

beforeAll(() => {
  functions = resolveDeployment(synthesizeDeployment(), { tableName: 'dept-admin', reportsBucket: 'reports', region: LOCAL_REGION });
  router = functions.find((fn) => fn.handler === STREAM_ROUTER.handler)!;
  Object.assign(process.env, router.environment);
  record(events() as unknown as Client, (_command, input) => ({
    FailedEntryCount: 0,
    Entries: input.Entries.map((entry: { Detail: string }) =>
      refusedIds.has(JSON.parse(entry.Detail).id) ? { ErrorCode: 'InternalFailure' } : { EventId: `ev-${JSON.parse(entry.Detail).id}` },
    ),
  }));
  record(lambda() as unknown as Client, () => ({ StatusCode: 202 }));
}, 120_000);

beforeEach(async () => {
  recorded.length = 0;
  refusedIds = new Set();
  ({ handler } = (await import('../../functions/streamRouter')) as unknown as { handler: typeof handler });
});

let sequence = 100;
/** A stream record as Lambda sends it, of an item written. */
const streamRecord = (eventName: 'INSERT' | 'MODIFY', item: Record<string, unknown>): DynamoDBRecord => ({
  eventID: `e${sequence}`,
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
    NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    SequenceNumber: String(sequence++),
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
});

const entry = (n: number): AuditEntry => ({
  id: `chg${n}`,
  at: `2026-11-28T10:00:${String(n).padStart(2, '0')}.000Z`,
  actor: 'local-admin',
  operation: 'addDepartmentUsers',
  resource_type: 'department',
  resource_id: 'sales',
  // Nested lists and maps, and text DynamoDB's typed JSON would have wrapped: plain JSON on the bus.
  changes: { added_user_ids: [`u${n}`, 'ada'], moved: { from: null, to: 'sales' }, note: 'Zoë ✓', count: n },
});

const context = {} as Context;

describe('the StreamRouter', () => {
  it("publishes each feed entry to the change bus in plain JSON, exactly as GET /v2/changes gives it, in the feed's order", async () => {
    const items = Array.from({ length: 12 }, (_, i) => feedItem(i % 2, 1 + Math.floor(i / 2), `2026-11-28T10:01:00.000Z`, entry(i)));
    const answer = await handler({ Records: items.map((item) => streamRecord('INSERT', item)) }, context);
    expect(answer.batchItemFailures).toEqual([]);
    const puts = recorded.filter((call) => call.command === 'PutEventsCommand');
    // PutEvents takes 10 entries a call.
    expect(puts.map((call) => call.input.Entries.length)).toEqual([10, 2]);
    const published = puts.flatMap((call) => call.input.Entries);
    for (const event of published) {
      expect(event).toMatchObject({
        EventBusName: process.env.CHANGE_BUS_NAME,
        Source: CHANGE_EVENT_SOURCE,
        DetailType: CHANGE_EVENT_DETAIL_TYPE,
      });
    }
    // The feed's own reading of each item is what a page of GET /v2/changes holds.
    expect(published.map((event: { Detail: string }) => JSON.parse(event.Detail))).toEqual(items.map((item) => feedEntryOf(item)!.entry));
    expect(JSON.parse(published[0].Detail)).toEqual(entry(0));
  });

  it('hands report jobs that become pending and rule work to their workers, asynchronously, with their own stream events', async () => {
    const pending = streamRecord('INSERT', { pk: 'REPORT#r1', sk: 'REPORT', type: 'report', status: 'pending', id: 'r1' });
    const retried = streamRecord('MODIFY', { pk: 'REPORT#r2', sk: 'REPORT', type: 'report', status: 'pending', id: 'r2' });
    const done = streamRecord('MODIFY', { pk: 'REPORT#r3', sk: 'REPORT', type: 'report', status: 'done', id: 'r3' });
    const work = streamRecord('INSERT', { pk: 'RULEWORK#u1', sk: 'WORK', type: 'rule-work', subject: 'user', subject_id: 'u1' });
    const answer = await handler({ Records: [pending, done, work, retried] }, context);
    expect(answer.batchItemFailures).toEqual([]);
    const invokes = recorded.filter((call) => call.command === 'InvokeCommand').map((call) => call.input);
    expect(invokes.map((input) => [input.FunctionName, input.InvocationType])).toEqual([
      [process.env.REPORT_WORKER_FUNCTION, 'Event'],
      [process.env.RULE_WORKER_FUNCTION, 'Event'],
    ]);
    const payloads = invokes.map((input) => JSON.parse(new TextDecoder().decode(input.Payload)));
    expect(payloads).toEqual([{ Records: [pending, retried] }, { Records: [work] }]);
  });

  it('reports the first feed entry the bus keeps refusing; the mapping retries from there, so the order holds', async () => {
    const items = Array.from({ length: 5 }, (_, i) => feedItem(0, 1 + i, '2026-11-28T10:02:00.000Z', entry(20 + i)));
    refusedIds = new Set(['chg22']);
    const records = items.map((item) => streamRecord('INSERT', item));
    const answer = await handler({ Records: records }, context);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: records[2].dynamodb!.SequenceNumber }]);
  }, 20_000);

  it('makes only calls its role allows: PutEvents on the bus, Invoke of the two workers', async () => {
    await handler(
      {
        Records: [
          streamRecord('INSERT', feedItem(0, 1, '2026-11-28T10:03:00.000Z', entry(30))),
          streamRecord('INSERT', { pk: 'REPORT#r9', sk: 'REPORT', type: 'report', status: 'pending', id: 'r9' }),
          streamRecord('INSERT', { pk: 'RULEWORK#u9', sk: 'WORK', type: 'rule-work', subject: 'user', subject_id: 'u9' }),
        ],
      },
      context,
    );
    const account = LOCAL_ACCOUNT;
    const arnOf = (call: Recorded) =>
      call.command === 'PutEventsCommand'
        ? {
            action: 'events:PutEvents',
            resource: `arn:aws:events:${LOCAL_REGION}:${account}:event-bus/${call.input.Entries[0].EventBusName}`,
          }
        : { action: 'lambda:InvokeFunction', resource: `arn:aws:lambda:${LOCAL_REGION}:${account}:function:${call.input.FunctionName}` };
    expect(recorded.map((call) => call.command).sort()).toEqual(['InvokeCommand', 'InvokeCommand', 'PutEventsCommand']);
    for (const call of recorded) {
      const { action, resource } = arnOf(call);
      expect((await evaluateCall(roleStatements(router), { action, resource, context: {} })).decision, `${action} ${resource}`).toBe(
        'Allowed',
      );
    }
    // No other function, no other bus.
    const maintenance = functions.find((fn) => fn.handler === 'maintenance')!;
    const other = `arn:aws:lambda:${LOCAL_REGION}:${account}:function:${maintenance.logicalId}-local`;
    expect((await evaluateCall(roleStatements(router), { action: 'lambda:InvokeFunction', resource: other, context: {} })).decision).toBe(
      'ImplicitlyDenied',
    );
    const bus = `arn:aws:events:${LOCAL_REGION}:${account}:event-bus/default`;
    expect((await evaluateCall(roleStatements(router), { action: 'events:PutEvents', resource: bus, context: {} })).decision).toBe(
      'ImplicitlyDenied',
    );
  });

  it('sequences audit-entry inserts, and reports the earliest of them when sequencing fails', async () => {
    const audits = [0, 1, 2].map((n) =>
      auditItem({ actor: 'a', operation: 'test', request_id: 'r', resource_type: 'user', resource_id: `u${n}`, changes: {} }),
    );
    const records = audits.map((item) => streamRecord('INSERT', item));
    const sequenced: unknown[][] = [];
    const deps = {
      sequence: async (entries: unknown[]) => (sequenced.push(entries), entries.length),
      publish: async () => 0,
      invoke: async () => {},
      workers: [],
    };
    expect(await routeRecords(records, deps)).toEqual({ batchItemFailures: [] });
    expect(sequenced).toEqual([audits]);
    const failing = { ...deps, sequence: async () => Promise.reject(new Error('throttled')) };
    expect(await routeRecords(records, failing)).toEqual({ batchItemFailures: [{ itemIdentifier: records[0].dynamodb!.SequenceNumber }] });
  });
});
