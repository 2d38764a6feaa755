/**
 * Dry runs of E2 and E3 (docs/safety.md): for random departments,
 * limits and users, a dry run changes nothing, and the real request that
 * follows gives the same answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useApi, type ApiResponse } from '../support/api';
import { scanTable } from '../support/invariants';

const api = useApi();
let run = 0;

const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
const scenario = fc.record({
  limits: fc.array(
    fc.record({
      users: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      admins: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      activated_users: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    }),
    { minLength: 2, maxLength: 2 },
  ),
  users: fc.array(fc.record({ role: fc.constantFrom(...ROLES), activated: fc.boolean(), department: fc.constantFrom(null, 0, 1) }), {
    minLength: 1,
    maxLength: 6,
  }),
  request: fc.oneof(
    fc.record({ kind: fc.constant('E2' as const), user: fc.nat(), department: fc.constantFrom(0, 1, -1) }),
    fc.record({ kind: fc.constant('E3' as const), users: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), unknown: fc.boolean() }),
  ),
});

/** The answer without the parts that depend on when it was made. */
function comparable(response: ApiResponse) {
  const strip = (user: Record<string, unknown>) => ({ ...user, updated_at: undefined });
  if (response.status !== 200) return { status: response.status, body: response.body };
  if (Array.isArray(response.body?.users)) return { status: 200, users: response.body.users.map(strip) };
  return { status: 200, body: strip(response.body) };
}

describe('dry runs', () => {
  it('change nothing and agree with the real request that follows', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ limits, users, request }) => {
        const prefix = `r${++run}x`;
        const departments = [`${prefix}d0`, `${prefix}d1`];
        for (const [i, id] of departments.entries()) {
          expect((await api.post('/v2/departments', { id, name: id })).status).toBe(201);
          for (const [name, limit] of Object.entries(limits[i])) {
            if (limit !== undefined) expect((await api.put(`/v2/departments/${id}/quotas`, { name, limit })).status).toBe(200);
          }
        }
        const ids = users.map((_, i) => `${prefix}u${i}`);
        for (const [i, user] of users.entries()) {
          const created = await api.post('/v2/users', {
            id: ids[i],
            email: `${ids[i]}@example.com`,
            last_name: 'Dry',
            account_role: user.role,
            activated: user.activated,
          });
          expect(created.status).toBe(201);
          // Placing users may itself hit a limit; then they simply stay outside.
          if (user.department !== null) await api.post(`/v2/departments/${departments[user.department]}/users/${ids[i]}`);
        }

        const target =
          request.kind === 'E2' && request.department === -1
            ? `${prefix}missing`
            : departments[request.kind === 'E2' ? request.department : 0];
        const send = (dryRun: boolean) => {
          const query = dryRun ? '?dry_run=true' : '';
          if (request.kind === 'E2') return api.post(`/v2/departments/${target}/users/${ids[request.user % ids.length]}${query}`);
          const userIds = request.users.map((n) => ids[n % ids.length]).concat(request.unknown ? [`${prefix}ghost`] : []);
          return api.post(`/v2/departments/${target}/users${query}`, { user_ids: userIds });
        };

        // Rule work (lib/store/rules.ts) is the RuleWorker's, and the change feed (its entries, heads and the audit
        // entries' pending marks, lib/changes/sequencer.ts) the sequencer's: both follow the setup's changes meanwhile.
        const background = new Set(['rule-work', 'feed', 'feed-head']);
        const requestItems = async () =>
          (await scanTable())
            .filter((item) => !background.has(item.type as string))
            .map(({ gsi1pk, ...item }) => (item.type === 'audit' ? item : { ...item, gsi1pk }));
        const before = await requestItems();
        const dry = await send(true);
        expect(await requestItems()).toEqual(before);
        const real = await send(false);
        expect(comparable(dry)).toEqual(comparable(real));
      }),
      { numRuns: 25 },
    );
  });
});
