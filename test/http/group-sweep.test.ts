/**
 * A deleted group's memberships, swept from the functions as they deploy: G6
 * of a group too large to delete in its own transaction sweeps the
 * memberships in batches before answering (lib/groups/cleanup.ts), and the
 * maintenance function, run from its bundle on its schedule's event, finds
 * nothing left to repair. Both through the AWS call checker, so their roles
 * are proven to hold what these paths call (BatchWriteItem among them).
 */
import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api';
import { unique } from '../support/fixtures';

const api = useApi();

/** More members than a group's deletion removes in its own transaction (48), so the request sweeps them. */
const MEMBERS = 60;

describe('a deleted group’s memberships', () => {
  it('are swept by the deleting request in batches, and the maintenance function then finds nothing to do', async () => {
    const userIds = Array.from({ length: MEMBERS }, () => unique('u'));
    for (const id of userIds) {
      const created = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Swept' });
      expect(created.status, created.text).toBe(201);
    }
    const group = await api.post('/v2/groups', { id: unique('g'), name: unique('Swept '), user_ids: userIds });
    expect(group.status, group.text).toBe(201);
    expect((await api.get(`/v2/groups/${group.body.id}`)).body.user_count).toBe(MEMBERS);

    const deleted = await api.delete(`/v2/groups/${group.body.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect((await api.get(`/v2/groups/${group.body.id}`)).status).toBe(404);
    // The user stays, without the membership: deleting it now touches no group.
    expect((await api.delete(`/v2/users/${userIds[MEMBERS - 1]}`)).status).toBe(204);

    // The schedule's event, as EventBridge sends it; the function logs a line only when it repaired something.
    await api.functions!.host.invoke('maintenance', { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    expect(api.output('maintenance').filter((line) => line.includes('repaired'))).toEqual([]);
  });
});
