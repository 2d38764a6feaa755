/**
 * Bulk: E3 of N users from 10 other departments through the handler, against the raw transactions it needs
 * (support/raw.ts rawE3). Each run moves a fresh set into a fresh department; handler and raw runs alternate.
 */
import { addCounters, batchPut, departmentItem, loadDataset, type Doc } from '../test/support/measure/dataset';
import { prepared } from '../test/support/measure/handler-call';
import { rawE3 } from './support/raw';
import { DEPARTMENTS_COUNTER } from '../lib/store/stats';
import { median, progress, ratio, round, timed } from './support/util';

export const BULK_GOAL = 1.2;

async function scenario(client: Doc, table: string, name: string, users: number) {
  const spec = { prefix: name, departments: 10, usersPerDepartment: users / 10, unassignedUsers: 0, groups: 0, usersPerGroup: 0 };
  const data = await loadDataset(client, table, spec);
  const target = `${name}-target`;
  await batchPut(client, table, [departmentItem(target, `Target ${name}`, [])]);
  await addCounters(client, table, { [DEPARTMENTS_COUNTER]: 1 });
  return { target, ids: data.departments.flatMap((d) => data.members.get(d)!) };
}

export async function measureBulk(client: Doc, table: string, options: { users: number; runs: number }) {
  progress(`bulk: loading ${2 * options.runs} sets of ${options.users} users, each in 10 departments`);
  const sets = [];
  for (let run = 0; run < options.runs; run++) {
    sets.push({
      handler: await scenario(client, table, `bh${run}`, options.users),
      raw: await scenario(client, table, `br${run}`, options.users),
    });
  }
  const handlerSeconds: number[] = [];
  const rawSeconds: number[] = [];
  for (const [run, set] of sets.entries()) {
    progress(`bulk: run ${run + 1}/${options.runs}: E3 of ${options.users} users, handler and raw`);
    // Told it has 15 minutes, so that a slow machine measures the move instead of an early 503; `over_timeout` says so.
    const invocation = { params: { department_id: set.handler.target }, body: { user_ids: set.handler.ids } };
    const handler = await prepared('E3', invocation, 15 * 60_000);
    const timeHandler = async () => {
      const { result, ms } = await timed(handler);
      handlerSeconds.push(ms / 1000);
      const users = (JSON.parse(result.body!) as { users: Array<{ department_id: string }> }).users;
      if (users.length !== options.users || users.some((u) => u.department_id !== set.handler.target))
        throw new Error('bulk: E3 did not move every user');
    };
    const timeRaw = async () => rawSeconds.push((await timed(() => rawE3(client, table, set.raw.target, set.raw.ids))).ms / 1000);
    for (const time of run % 2 === 0 ? [timeHandler, timeRaw] : [timeRaw, timeHandler]) await time();
  }
  const seconds = median(handlerSeconds);
  const raw = median(rawSeconds);
  return {
    ...{ users: options.users, seconds: round(seconds, 2), raw_seconds: round(raw, 2), ratio: round(ratio(seconds, raw), 2) },
    runs: options.runs,
    // A run took longer than the deployed 10 s Lambda timeout (a 503 in AWS).
    over_timeout: handlerSeconds.some((s) => s > 10),
    meets_goal: ratio(seconds, raw) <= BULK_GOAL && handlerSeconds.every((s) => s <= 10),
  };
}
