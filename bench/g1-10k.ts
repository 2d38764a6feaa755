/**
 * Measures groups at the 10,000-user limit against local services (not a
 * test): `npx tsx bench/g1-10k.ts`.
 *
 * Starts DynamoDB Local (in memory) and the gateway in this process, creates
 * 10,000 users and one group holding all of them (G3), then prints, for
 * requests made through HTTP, the time and the capacity DynamoDB reports
 * (ReturnConsumedCapacity on every call of the service's client): G1 of the
 * full group, G4/G5 of one user, and G6 of the full group together with the
 * sweep of its memberships. DynamoDB Local reports reads and
 * non-transactional writes the way DynamoDB charges them (4 KB read units,
 * 1 KB write units, index writes included), but not TransactWriteItems: it
 * answers a small constant whatever the transaction holds. Transactions are
 * therefore printed as DynamoDB charges them (CHARGED below), counted from
 * the items each operation writes. Times are those of DynamoDB Local on one
 * machine (which runs one transaction at a time), not of AWS.
 */
import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { startGateway } from '../infra/local/gateway';
import { startLocalServices } from '../infra/local/services';
import { forEachConcurrently } from '../lib/db/batch';
import { db, tableName } from '../lib/db/client';
import { claimItem } from '../lib/store/claims';
import { sweepDeletedGroups } from '../lib/groups/cleanup';
import { createGroup } from '../lib/groups/create';
import { addNameCount } from '../lib/store/name-counts';
import { addCounters } from '../lib/store/stats';
import { userItem, type User } from '../lib/store/users';
import { foldCase } from '../lib/text';
import { cellCounterName } from '../lib/users/counters';
import { measure, meterCapacity } from './support/capacity';

const USERS = 10_000;
const RUNS = 3;
const TOKEN = 'bench-token';
const LAST_NAMES = ['Lovelace', 'hopper', 'Turing', 'Hamilton', 'liskov', 'Knuth', 'Ritchie', 'Goldberg', 'Allen', 'Wing'];
const ctx = { actor: 'bench', operationId: 'bench', requestId: 'bench' };

/**
 * Writes the users as createUser would (user item, e-mail claim, and the counters it moves: the service's cell
 * counter and the last-name counters; none has logged in, so no login-day counter), with BatchWriteItem instead of
 * one transaction each: the setup then takes seconds, not minutes.
 */
async function writeUsers(ids: string[]) {
  const now = new Date().toISOString();
  const users: User[] = ids.map((id, i) => ({
    id,
    email: `${id}@example.com`,
    user_name: `${id}@example.com`,
    external_id: null,
    first_name: 'Bench',
    last_name: LAST_NAMES[(i * 7) % LAST_NAMES.length],
    account_role: 'member',
    activated: true,
    last_login: null,
    department_id: null,
    created_at: now,
    updated_at: now,
  }));
  const items = users.flatMap((user) => [
    userItem(user, 1),
    claimItem('email', user.email, user.id),
    claimItem('user_name', user.user_name, user.id),
  ]);
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  await forEachConcurrently(batches, 16, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = (result.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined) ?? [];
    }
  });
  const cells: Record<string, number> = {};
  const names = new Map<string, number>();
  for (const user of users) {
    const cell = cellCounterName('OUT', user);
    cells[cell] = (cells[cell] ?? 0) + 1;
    names.set(foldCase(user.last_name), (names.get(foldCase(user.last_name)) ?? 0) + 1);
  }
  const writes = [...addCounters('bench', cells), ...[...names].flatMap(([name, n]) => addNameCount({ membership: 'OUT' }, name, n))];
  await db().send(new TransactWriteCommand({ TransactItems: writes.map((write) => write.item) }));
}

/**
 * Write units DynamoDB charges for the transactions: every item here is under 1 KB, so 2 units each in a
 * transaction, plus 1 per index entry written (2 when its key moves). A published group has two (gsi1 by name, gsi4
 * by creation), a pending one and a cleanup marker one (gsi1); an audit entry five as the service writes it (gsi1,
 * gsi2, gsi5, gsi8, and gsi7 because it carries `id` next to `gsi5pk`); membership items and claims none.
 */
const GROUP = 2 + 2;
const AUDIT = 2 + 5;
const CHARGED = {
  // group count + user check (a ConditionCheck is charged as a write: 2) + 2 membership items (2 + 2) + audit
  G4: GROUP + 2 + 4 + AUDIT,
  // group count + 2 membership items + audit
  G5: GROUP + 4 + AUDIT,
  // group (deleted with both entries) + name claim 2 + counter 2 + audit + cleanup marker (2 + gsi1)
  G6: GROUP + 2 + 2 + AUDIT + 3,
  // pending group (2 + gsi1) + name 2; per user its check 2 + 2 membership items 4; per 32 users an audit entry;
  // publish: group (2 + its gsi1 entry moved, 2, + a new gsi4 entry, 1) + counter 2 + audit
  G3: 5 + USERS * 6 + Math.ceil(USERS / 32) * AUDIT + 5 + 2 + AUDIT,
};

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const services = await startLocalServices();
  Object.assign(process.env, services.env, { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  const gateway = await startGateway({ tokens: { write: TOKEN } });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return { status: response.status, bytes: text.length, body: text ? JSON.parse(text) : undefined };
  };

  try {
    meterCapacity();
    const ids = Array.from({ length: USERS }, (_, i) => `bench-u${String(i).padStart(5, '0')}`);
    const setup = await measure(() => writeUsers(ids));
    console.log(`wrote ${USERS} users in ${round(setup.ms / 1000)} s`);

    // G3 is called directly: on DynamoDB Local, which runs one transaction at a time, it takes
    // about as long as the 29 s the local gateway (like API Gateway) waits for an answer.
    const g3 = await measure(() => createGroup(ctx, { id: 'bench-all', name: 'Everybody', user_ids: ids }));
    console.log(
      `G3 with ${USERS} users: ${round(g3.ms / 1000)} s, ${round(g3.capacity.rcu)} RCU, ${CHARGED.G3} WCU as charged, ${g3.capacity.calls} calls`,
    );

    const g1Runs = [];
    for (let run = 0; run < RUNS; run++) g1Runs.push(await measure(() => call('GET', '/v2/groups/bench-all')));
    const g1 = g1Runs[g1Runs.length - 1];
    const users = g1.result.body.users as Array<{ id: string }>;
    if (users.length !== USERS || g1.result.body.user_count !== USERS) throw new Error(`G1 answered ${users.length} users`);
    console.log(
      `G1 of ${USERS} users: ${g1Runs.map((r) => round(r.ms, 0)).join(' / ')} ms (median ${round(median(g1Runs.map((r) => r.ms)), 0)} ms), ` +
        `${round(g1.capacity.rcu)} RCU, ${g1.capacity.calls} calls, ${round(g1.result.bytes / 1_048_576, 2)} MiB answer`,
    );

    await call('POST', '/v2/groups', { id: 'bench-small', name: 'Small' });
    const g4 = await measure(() => call('POST', `/v2/groups/bench-small/users/${ids[0]}`));
    const g4Again = await measure(() => call('POST', `/v2/groups/bench-small/users/${ids[0]}`));
    const g5 = await measure(() => call('DELETE', `/v2/groups/bench-small/users/${ids[0]}`));
    console.log(
      `G4: ${round(g4.capacity.rcu)} RCU, ${CHARGED.G4} WCU as charged (DynamoDB Local reports ${round(g4.capacity.wcu)}); ` +
        `repeat, already a member: ${round(g4Again.capacity.rcu)} RCU, ${round(g4Again.capacity.wcu)} WCU`,
    );
    console.log(`G5: ${round(g5.capacity.rcu)} RCU, ${CHARGED.G5} WCU as charged (DynamoDB Local reports ${round(g5.capacity.wcu)})`);

    const g6 = await measure(() => call('DELETE', '/v2/groups/bench-all'));
    const sweep = await measure(() => sweepDeletedGroups());
    console.log(
      `G6 of ${USERS} users: request ${round(g6.ms)} ms, ${round(g6.capacity.rcu)} RCU, ${CHARGED.G6} WCU as charged (DynamoDB Local reports ${round(g6.capacity.wcu)})`,
    );
    console.log(
      `    sweep of its memberships: ${round(sweep.ms)} ms, ${round(sweep.capacity.wcu)} WCU, ${round(sweep.capacity.rcu)} RCU, ${sweep.capacity.calls} calls`,
    );
    console.log(`    total: ${round(CHARGED.G6 + sweep.capacity.wcu)} WCU, ${round(g6.capacity.rcu + sweep.capacity.rcu)} RCU`);
  } finally {
    await gateway.close();
    await services.stop();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
