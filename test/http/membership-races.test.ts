/**
 * Races through HTTP for the bulk operations (E3, E5) against each other, the
 * single-user ones (E2, E4) and E8. The single-user races (40 parallel E2
 * under a limit, parallel E2 moves, E8 against E2) are in membership.test.ts.
 *
 * After every race: no 5xx, every answer is one the contract allows, every
 * request was applied whole or not at all where that can be seen, and the
 * invariant checker and the table hold no leftovers of a bulk move.
 */
import { describe, expect, it } from 'vitest';
import { useApi, type ApiResponse } from '../support/api';
import { invariantViolations, scanTable } from '../support/invariants';
import { createDepartment, unique } from '../support/fixtures';

const api = useApi();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const department = (limits: Record<string, number> = {}) => createDepartment(api, limits, 'Race ');

const ROLES = ['admin', 'manager', 'member', 'guest'];

/** `count` users, created 25 at a time; the i-th gets role i mod 4 and is activated when i is even. */
async function users(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, async (_, j) => {
        const i = start + j;
        const id = unique('u');
        const body = { id, email: `${id}@example.com`, last_name: 'Racer', account_role: ROLES[i % 4], activated: i % 2 === 0 };
        const response = await api.post('/v2/users', body);
        expect(response.status, response.text).toBe(201);
        return id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

async function addAll(departmentId: string, ids: string[]) {
  const response = await api.post(`/v2/departments/${departmentId}/users`, { user_ids: ids });
  expect(response.status, response.text).toBe(200);
}

/** Every user's department_id, read strongly from the table. */
async function placement(): Promise<Map<string, string | null>> {
  const items = await scanTable();
  return new Map(
    items.filter((item) => item.type === 'user').map((item) => [item.id as string, (item.department_id ?? null) as string | null]),
  );
}

const openBulkItems = async () => (await scanTable()).filter((item) => String(item.pk).startsWith('BULK#') || item.bulk_lock);

async function expectConsistent() {
  expect(await invariantViolations()).toEqual([]);
  expect(await openBulkItems()).toEqual([]);
}

const describeResponse = (label: string, response: ApiResponse) => `${label} answered ${response.status} ${response.text.slice(0, 300)}`;

/** The response is one of the allowed `status problem-slug` outcomes (`200`, `204`, `404 not-a-member`, ...). */
function expectOutcome(label: string, response: ApiResponse, allowed: string[]) {
  const outcome = response.body?.type ? `${response.status} ${String(response.body.type).replace('/problems/', '')}` : `${response.status}`;
  expect(allowed, describeResponse(label, response)).toContain(outcome);
  return outcome;
}

describe('parallel E3 against one limit', () => {
  it.each([
    { requests: 6, size: 5, limit: 12 },
    { requests: 4, size: 100, limit: 250 }, // each request takes the chunked path of lib/departments/bulk-move/
  ])(
    '$requests parallel E3 of $size users each against a users limit of $limit: never over it, each request all or nothing',
    async ({ requests, size, limit }) => {
      const source = await department();
      const target = await department({ users: limit });
      const ids = await users(requests * size);
      const groups = Array.from({ length: requests }, (_, g) => ids.slice(g * size, (g + 1) * size));
      // Half of every request moves users out of another department (they count fully against the target).
      await addAll(
        source,
        groups.flatMap((group) => group.slice(0, Math.ceil(size / 2))),
      );
      const before = await placement();

      const responses = await Promise.all(groups.map((group) => api.post(`/v2/departments/${target}/users`, { user_ids: group })));

      const after = await placement();
      const outcomes = responses.map((response, g) => expectOutcome(`E3 #${g}`, response, ['200', '409 quota-exceeded', '409 conflict']));
      const fit = Math.floor(limit / size);
      const successes = outcomes.filter((o) => o === '200').length;
      expect(successes).toBeLessThanOrEqual(fit);
      if (!outcomes.includes('409 conflict')) expect(successes, `outcomes ${outcomes.join(', ')}`).toBe(fit);

      for (const [g, response] of responses.entries()) {
        const group = groups[g];
        if (response.status === 200) {
          expect(response.body.users.map((u: { id: string }) => u.id)).toEqual(group);
          for (const id of group) expect(after.get(id), `user ${id} of applied request ${g}`).toBe(target);
        } else {
          for (const id of group) expect(after.get(id), `user ${id} of refused request ${g}`).toBe(before.get(id));
          if (response.body.type === '/problems/quota-exceeded') {
            // Computed from the department as it stood: only whole requests were ever in it.
            const usage = response.body.overages[0]?.usage;
            expect(response.body.overages).toEqual([{ quota: 'users', limit, usage, requested: size, overage: usage + size - limit }]);
            expect(usage % size).toBe(0);
            expect(usage + size).toBeGreaterThan(limit);
          }
        }
      }
      const count = (await api.get(`/v2/departments/${target}`)).body.user_count;
      expect(count).toBe(successes * size);
      expect(count).toBeLessThanOrEqual(limit);
      await expectConsistent();
    },
  );
});

describe('parallel E3, E5, E2 and E4 moves of overlapping users among 3 departments', () => {
  // With a head start the chunked E5 usually gets its users before the others move them; without, it usually loses.
  it.each([{ headStart: 0 }, { headStart: 15 }])(
    'keep counters equal to members and each user in one department or none (E5 of 105 ahead by $headStart ms)',
    async ({ headStart }) => {
      const departments = [await department(), await department(), await department({ users: 130, admins: 40 })];
      const ids = await users(180);
      await addAll(departments[0], ids.slice(0, 40));
      await addAll(departments[1], ids.slice(40, 150));
      const slice = (from: number, to: number) => ids.slice(from, to);

      type Op = { label: string; run: () => Promise<ApiResponse>; allowed: string[]; department?: string; ids?: string[] };
      const e3 = (d: number, list: string[]): Op => ({
        label: `E3 ${d} ←${list.length}`,
        run: () => api.post(`/v2/departments/${departments[d]}/users`, { user_ids: list }),
        allowed: ['200', '409 quota-exceeded', '409 conflict'],
        department: departments[d],
        ids: list,
      });
      const e5 = (d: number, list: string[]): Op => ({
        label: `E5 ${d} −${list.length}`,
        run: () => api.delete(`/v2/departments/${departments[d]}/users`, { user_ids: list }),
        allowed: ['204', '404 not-a-member', '409 conflict'],
      });
      const e2 = (d: number, id: string): Op => ({
        label: `E2 ${d} ${id}`,
        run: () => api.post(`/v2/departments/${departments[d]}/users/${id}`),
        allowed: ['200', '409 quota-exceeded', '409 conflict'],
        department: departments[d],
        ids: [id],
      });
      const e4 = (d: number, id: string): Op => ({
        label: `E4 ${d} ${id}`,
        run: () => api.delete(`/v2/departments/${departments[d]}/users/${id}`),
        allowed: ['204', '404 not-a-member', '409 conflict'],
      });
      const ops: Op[] = [
        e5(1, slice(40, 145)), // chunked (105 members), unless the moves below take some first
        e3(2, slice(20, 130)), // chunked: 110 users from both other departments
        e3(0, slice(120, 180)), // from d1 and from no department; overlaps both above
        e3(1, [...slice(0, 10), ...slice(40, 60)]), // two thirds already members
        e5(0, slice(0, 30)),
        e5(1, slice(140, 150)),
        ...Array.from({ length: 8 }, (_, i) => e3(i % 3, slice(i * 22, i * 22 + 6))),
        ...Array.from({ length: 8 }, (_, i) => e5(i % 3, slice(i * 21, i * 21 + 3))),
        ...Array.from({ length: 30 }, (_, i) => e2((i * 2) % 3, ids[(i * 7) % ids.length])),
        ...Array.from({ length: 12 }, (_, i) => e4(i % 3, ids[(i * 17) % ids.length])),
      ];

      const responses = await Promise.all(ops.map((op, i) => (i === 0 ? op.run() : sleep(headStart).then(op.run))));

      for (const [i, response] of responses.entries()) {
        const op = ops[i];
        expectOutcome(op.label, response, op.allowed);
        if (response.status === 200 && op.label.startsWith('E3')) {
          expect(response.body.users.map((u: { id: string }) => u.id)).toEqual(op.ids);
          expect(response.body.users.every((u: { department_id: string }) => u.department_id === op.department)).toBe(true);
        }
        if (response.status === 200 && op.label.startsWith('E2')) expect(response.body.department_id).toBe(op.department);
      }
      await expectConsistent();
      const after = await placement();
      for (const id of ids) expect([null, ...departments], `department of ${id}`).toContain(after.get(id));
      const counts = await Promise.all(departments.map(async (d) => (await api.get(`/v2/departments/${d}`)).body.user_count as number));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.filter((id) => after.get(id) !== null).length);
      expect(counts[2]).toBeLessThanOrEqual(130);
    },
  );
});

describe('PATCHes of what the list counters count, racing moves, bulk moves and deletes', () => {
  it('keeps every counter equal to what it counts, and the lists exact', async () => {
    const departments = [await department(), await department({ admins: 30 })];
    const ids = await users(120);
    await addAll(departments[0], ids.slice(0, 50));
    await addAll(departments[1], ids.slice(50, 90));
    type Op = { label: string; run: () => Promise<ApiResponse>; allowed: string[]; deletes?: string };
    const patch = (id: string, body: Record<string, unknown>): Op => ({
      label: `PATCH ${id} ${JSON.stringify(body)}`,
      run: () => api.patch(`/v2/users/${id}`, body),
      allowed: ['200', '409 quota-exceeded', '409 conflict', '404 not-found'],
    });
    const logins = [null, '2026-05-01T00:00:00.000Z', '2026-11-20T08:00:00.000Z', '2025-12-31T23:59:59.999Z'];
    const ops: Op[] = [
      {
        label: 'E3 d1 ←60',
        run: () => api.post(`/v2/departments/${departments[1]}/users`, { user_ids: ids.slice(20, 80) }),
        allowed: ['200', '409 quota-exceeded', '409 conflict'],
      },
      {
        label: 'E5 d0 −20',
        run: () => api.delete(`/v2/departments/${departments[0]}/users`, { user_ids: ids.slice(0, 20) }),
        allowed: ['204', '404 not-a-member', '409 conflict'],
      },
      ...Array.from({ length: 40 }, (_, i) => patch(ids[(i * 7) % ids.length], { activated: i % 2 === 0 })),
      ...Array.from({ length: 40 }, (_, i) => patch(ids[(i * 11) % ids.length], { last_login: logins[i % logins.length] })),
      ...Array.from({ length: 15 }, (_, i) =>
        patch(ids[(i * 13) % ids.length], { account_role: ROLES[i % 4], last_name: i % 2 ? 'Smith' : 'Racer' }),
      ),
      ...Array.from({ length: 15 }, (_, i) => ({
        label: `E2 ${i}`,
        run: () => api.post(`/v2/departments/${departments[i % 2]}/users/${ids[(i * 5) % ids.length]}`),
        allowed: ['200', '409 quota-exceeded', '409 conflict', '404 not-found'],
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        label: `DELETE ${ids[100 + i * 3]}`,
        run: () => api.delete(`/v2/users/${ids[100 + i * 3]}`),
        allowed: ['204', '409 conflict'],
        deletes: ids[100 + i * 3],
      })),
    ];
    const responses = await Promise.all(ops.map((op) => op.run()));
    for (const [i, response] of responses.entries()) expectOutcome(ops[i].label, response, ops[i].allowed);
    await expectConsistent();

    // The totals the counters give agree with the users as they now are.
    const now = (await scanTable()).filter((item) => item.type === 'user');
    const count = (test: (u: Record<string, any>) => boolean) => now.filter(test).length;
    const totals: Array<[string, number]> = [
      ['/v2/users?activated=true', count((u) => u.activated)],
      ['/v2/users?last_login=never', count((u) => u.last_login === null)],
      ['/v2/users?last_login=since:2026-05-01', count((u) => u.last_login !== null && u.last_login >= '2026-05-01T00:00:00.000Z')],
      [
        '/v2/departments/users?query=account_role:admin&activated=false',
        count((u) => u.department_id && u.account_role === 'admin' && !u.activated),
      ],
      [
        `/v2/departments/${departments[1]}/users?last_login=before:2026-05-01`,
        count((u) => u.department_id === departments[1] && u.last_login !== null && u.last_login < '2026-05-01'),
      ],
      ['/v2/users?query=last_name:smi', count((u) => u.last_name.toLowerCase().startsWith('smi'))],
    ];
    for (const [path, expected] of totals) {
      const response = await api.get(path);
      expect(response.body.total, path).toBe(expected);
    }
  });
});

describe('E8 racing E3 into the same department', () => {
  // E8 starts `delay` ms after the two E3 (before them when negative); 120 users take the chunked path of lib/departments/bulk-move/.
  it.each([
    { size: 5, delay: -10 },
    { size: 5, delay: 0 },
    { size: 5, delay: 20 },
    { size: 120, delay: 0 },
    { size: 120, delay: 25 },
    { size: 120, delay: 60 },
  ])('never leaves a user in a deleted department (E3 of $size and 5 users, E8 after $delay ms)', async ({ size, delay }) => {
    const elsewhere = await department();
    const target = await department();
    const ids = await users(size + 5);
    const groups = [ids.slice(0, size), ids.slice(size)];
    await addAll(elsewhere, groups[1]); // the second request moves 5 users out of another department
    const before = await placement();

    const after = (ms: number, run: () => Promise<ApiResponse>) => sleep(Math.max(0, ms)).then(run);
    const [deletion, ...additions] = await Promise.all([
      after(delay, () => api.delete(`/v2/departments/${target}`)),
      ...groups.map((group) => after(-delay, () => api.post(`/v2/departments/${target}/users`, { user_ids: group }))),
    ]);

    const deleted = expectOutcome('E8', deletion, ['200', '409 department-not-empty', '409 conflict']) === '200';
    const placed = await placement();
    const added = additions.map((response, g) => {
      const outcome = expectOutcome(
        `E3 #${g}`,
        response,
        // The department exists until E8 wins, so not-found means E8 won first.
        deleted ? ['404 not-found', '409 conflict'] : ['200', '409 conflict'],
      );
      for (const id of groups[g]) expect(placed.get(id), `user ${id} of E3 #${g}`).toBe(outcome === '200' ? target : before.get(id));
      return outcome === '200';
    });
    const read = await api.get(`/v2/departments/${target}`);
    if (deleted) {
      expect(read.status).toBe(404);
      expect([...placed.values()]).not.toContain(target);
    } else {
      expect(read.status).toBe(200);
      if (deletion.body.type === '/problems/department-not-empty') expect(added).toContain(true);
      expect(read.body.user_count).toBe(groups.filter((_, g) => added[g]).reduce((n, group) => n + group.length, 0));
    }
    await expectConsistent();
  });
});
