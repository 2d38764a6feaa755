/**
 * A group's members at 1,000 and 10,000 (docs/performance.md): G1 (its bytes: the first 1,000 users and the cursor of
 * the rest) and a page of 100 of GET /v2/groups/{group_id}/users, first and ~90% deep by cursor, in G1's order
 * (last_name, which reads the whole group) and by id (which reads its page), each through its handler, metered.
 */
import { measure, meterCapacity, stopMetering } from '../test/support/measure/capacity-meter';
import { loadDataset, type Doc } from '../test/support/measure/dataset';
import { invoke } from '../test/support/measure/handler-call';
import { progress, round } from './support/util';

export type MembersRow = { members: number; request: string; rcu: number; calls: string; bytes: number; ms: number };

/** Loads a group of each size (its own users, ordinary ones), then measures; `client` writes the dataset. */
export async function measureMembers(client: Doc, table: string, sizes: number[] = [1_000, 10_000]): Promise<MembersRow[]> {
  const rows: MembersRow[] = [];
  for (const members of sizes) {
    progress(`members: loading a group of ${members} users`);
    const spec = { prefix: `m${members}-`, departments: 1, usersPerDepartment: members, unassignedUsers: 0, emailClaims: false };
    const data = await loadDataset(client, table, { ...spec, groups: 1, usersPerGroup: members }, 16);
    const groupId = data.groups[0].id;
    meterCapacity(client, table);
    try {
      const row = async (request: string, operation: string, query?: Record<string, string>) => {
        const { result, capacity, ms } = await measure(() => invoke(operation, { params: { group_id: groupId }, query }));
        const { rcu, calls } = capacity;
        rows.push({ members, request, rcu, calls, bytes: Buffer.byteLength(result.body ?? '', 'utf8'), ms: round(ms) });
        return JSON.parse(result.body ?? '{}') as { next_cursor?: string | null };
      };
      const deep = Math.round(members * 0.9);
      await row('G1', 'getGroup');
      for (const sort of ['last_name', 'id']) {
        await row(`page 1 (sort=${sort}, count=100)`, 'listGroupUsers', { sort });
        // The cursor after the deep-th user, from the page before it (reached by offset, not measured).
        const before = await invoke('listGroupUsers', {
          params: { group_id: groupId },
          query: { sort, offset: String(deep - 100), count: '100' },
        });
        const cursor = (JSON.parse(before.body ?? '{}') as { next_cursor: string }).next_cursor;
        await row(`page after user ${deep} by cursor (sort=${sort})`, 'listGroupUsers', { sort, cursor });
      }
    } finally {
      stopMetering();
    }
  }
  return rows;
}
