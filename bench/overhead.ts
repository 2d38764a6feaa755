/**
 * Overhead: a warm handler invocation (in process, with an API Gateway event) against the same DynamoDB calls sent
 * directly (support/raw.ts), alternating which goes first; medians. E2 and E3 move users one way when first in an
 * iteration and back when second; G4 adds a fresh user each run. docs/performance.md "Overhead and bulk".
 */
import { loadDataset, type Doc } from '../test/support/measure/dataset';
import { lambdaContext, prepared, routeEvent } from '../test/support/measure/handler-call';
import { rawE1, rawE2, rawE3, rawG1, rawG4 } from './support/raw';
import { median, progress, ratio, round, timed } from './support/util';

export const OVERHEAD_GOAL = 1.1;

/** The fixed cost of the handler pipeline alone: lib/http/operation.ts `operation()` around a no-op, median of warm calls. */
export async function pipelineMs(runs = 300): Promise<number> {
  const { operation } = await import('../lib/http/operation');
  const handler = operation('health', {}, async () => ({ body: { status: 'ok' } }));
  const call = () => handler(routeEvent('getUser', { params: { user_id: 'x' } }) as never, lambdaContext('bench'));
  for (let i = 0; i < 20; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push((await timed(call)).ms);
  return round(median(samples), 3);
}

/** Run `i` of the handler and of the raw calls; `first`: it runs first in its iteration (moves go there, then back). */
type Run = (i: number, first: boolean) => Promise<unknown>;

export async function measureOverhead(client: Doc, table: string, options: { runs: number; warmup: number }) {
  const total = options.runs + options.warmup;
  progress(`overhead: loading its dataset (2 departments of 101 users, 2 groups of 100, ${2 * total} users for G4)`);
  const spec = { prefix: 'o', departments: 2, usersPerDepartment: 101, unassignedUsers: 2 * total, groups: 2, usersPerGroup: 100 };
  const data = await loadDataset(client, table, spec);
  const [a, b] = data.departments;
  const e2User = data.members.get(a)![0];
  const e3Users = data.members.get(a)!.slice(1, 101);
  const [g1, g4] = data.groups.map((group) => group.id);
  const g4Users = data.unassigned;

  // Moves go a -> b when run first in an iteration, back b -> a when second.
  const movesInto = async (department_id: string) => ({
    E2: await prepared('E2', { params: { department_id, user_id: e2User } }),
    E3: await prepared('E3', { params: { department_id }, body: { user_ids: e3Users } }),
  });
  const moves = { [a]: await movesInto(a), [b]: await movesInto(b) };
  const e1 = await prepared('E1', { query: { count: '100' } });
  const g1Handler = await prepared('G1', { params: { group_id: g1 } });
  const target = (first: boolean) => (first ? b : a);

  const pairs: Array<{ operation: string; handler: Run; raw: Run }> = [
    { operation: 'E2', handler: (_i, first) => moves[target(first)].E2(), raw: (_i, first) => rawE2(client, table, target(first), e2User) },
    {
      operation: 'E3 (100 users)',
      handler: (_i, first) => moves[target(first)].E3(),
      raw: (_i, first) => rawE3(client, table, target(first), e3Users),
    },
    { operation: 'E1 (page of 100)', handler: () => e1(), raw: () => rawE1(client, table, 100) },
    { operation: 'G1 (100 users)', handler: () => g1Handler(), raw: () => rawG1(client, table, g1) },
    {
      operation: 'G4',
      handler: async (i) => (await prepared('G4', { params: { group_id: g4, user_id: g4Users[2 * i] } }))(),
      raw: (i) => rawG4(client, table, g4, g4Users[2 * i + 1]),
    },
  ];

  const results = [];
  for (const pair of pairs) {
    progress(`overhead: ${pair.operation}, ${options.warmup} warm-up + ${options.runs} runs each, alternating`);
    const handler: Array<{ ms: number; cpu: number }> = [];
    const raw: Array<{ ms: number; cpu: number }> = [];
    for (let i = 0; i < total; i++) {
      const handlerFirst = i % 2 === 0;
      const first = await timed(() => (handlerFirst ? pair.handler(i, true) : pair.raw(i, true)));
      const second = await timed(() => (handlerFirst ? pair.raw(i, false) : pair.handler(i, false)));
      if (i < options.warmup) continue;
      handler.push(handlerFirst ? first : second);
      raw.push(handlerFirst ? second : first);
    }
    const [handlerMs, rawMs] = [median(handler.map((t) => t.ms)), median(raw.map((t) => t.ms))];
    results.push({
      operation: pair.operation,
      ...{ handler_ms: round(handlerMs, 2), raw_ms: round(rawMs, 2), ratio: round(ratio(handlerMs, rawMs), 2) },
      extra_ms: round(handlerMs - rawMs, 2),
      // Median CPU time of this process per call: the JavaScript work, without the wait for DynamoDB.
      handler_cpu_ms: round(median(handler.map((t) => t.cpu)), 2),
      raw_cpu_ms: round(median(raw.map((t) => t.cpu)), 2),
      runs: options.runs,
      meets_goal: ratio(handlerMs, rawMs) <= OVERHEAD_GOAL,
    });
  }
  return results;
}
