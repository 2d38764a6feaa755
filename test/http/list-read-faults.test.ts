/**
 * A list whose reads fail while DynamoDB is down, through a local gateway in
 * the test's own process: the page read fails at once, every other read (the
 * total's count, the counters) a moment later. The caller gets 503
 * `unavailable`, and the later failures are handled too: no promise of the
 * service rejects unhandled (one did: a list started its total, awaited its
 * page first, and the total's rejection, arriving after the answer, ended
 * every process of `npm start`).
 */
import { InternalServerError } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { Api, READ_TOKEN, startTestGateway, WRITE_TOKEN } from '../support/api';

// A gateway without the background functions: nothing but the requests reads DynamoDB.
let gateway: Awaited<ReturnType<typeof startTestGateway>> | undefined;
const api = new Api('');

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let inFlight = 0;
let down = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const outage = () => new InternalServerError({ message: 'injected outage', $metadata: {} });

beforeAll(async () => {
  gateway = await startTestGateway({
    tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
    inProcess: 'injects faults through the SDK client',
  });
  (api as { baseUrl: string }).baseUrl = gateway.url;
  process.on('unhandledRejection', onUnhandled);
  db().middlewareStack.add(
    (next, context) => async (args) => {
      inFlight++;
      try {
        if (!down) return await next(args);
        const input = args.input as { Select?: string };
        // A page is a Query of items; a total is a Query of a count or a read of the counters.
        if (context.commandName !== 'QueryCommand' || input.Select === 'COUNT') await sleep(100);
        throw outage();
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: 'injectOutage' },
  );
  for (const kind of ['departments', 'groups']) {
    for (const name of ['Alpha', 'Alps', 'Beta']) expect((await api.post(`/v2/${kind}`, { name })).status).toBe(201);
  }
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  db().middlewareStack.remove('injectOutage');
  await gateway?.close();
});

/** Once every DynamoDB call the request started has ended, and a rejection left unhandled has been reported. */
async function settled(): Promise<void> {
  while (inFlight > 0) await sleep(10);
  await sleep(50);
}

describe('a list read while DynamoDB fails', () => {
  const paths = ['departments', 'groups'].flatMap((kind) =>
    ['name', 'created_at', 'user_count'].flatMap((sort) => [`/v2/${kind}?sort=${sort}`, `/v2/${kind}?sort=${sort}&query=name:al`]),
  );
  const userPaths = ['/v2/users', '/v2/departments/users'].flatMap((list) =>
    ['last_name', 'last_login'].flatMap((sort) => [`${list}?sort=${sort}`, `${list}?sort=${sort}&query=last_name:al`]),
  );

  it.each([...paths, ...userPaths])('%s answers 503 and leaves no rejection unhandled', async (path) => {
    down = true;
    try {
      const response = await api.get(path, { token: READ_TOKEN });
      expect(response.status, response.text).toBe(503);
      await settled();
    } finally {
      down = false;
    }
    expect(unhandled).toEqual([]);
  });

  it('answers again once DynamoDB is back', async () => {
    const response = await api.get('/v2/departments?query=name:al', { token: READ_TOKEN });
    expect(response.status, response.text).toBe(200);
    expect(response.body.total).toBe(2);
  });
});
