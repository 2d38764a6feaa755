/**
 * At most 20 e-mailed reports per caller an hour (E9, G8): racing requests never pass the limit, the 21st gets
 * 429 `too-many-requests` with `Retry-After`, a refused request creates nothing, another caller has its own 20,
 * reports without e-mail are not counted, and the next hour starts afresh. A file of its own: the count is per
 * caller and table, and the local write token is one caller.
 */
import { describe, expect, it } from 'vitest';
import { getItem } from '../../lib/db/items';
import { TTL_ATTRIBUTE } from '../../lib/db/table';
import { Problem } from '../../lib/problems';
import { createReport } from '../../lib/reports/jobs';
import { EMAILED_REPORTS_PER_HOUR } from '../../lib/reports/recipients';
import { useApi } from '../support/api';

const api = useApi();
const HOUR_MS = 3600_000;

/** Waits out the end of the clock hour when it is near, so a race does not straddle two hours. */
async function awayFromHourEnd() {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

async function reportAuditEntries(): Promise<number> {
  const response = await api.get('/v2/audit?count=100');
  expect(response.status).toBe(200);
  return response.body.entries.filter((entry: { resource_type: string }) => entry.resource_type === 'report').length;
}

describe('e-mailed reports per caller and hour', () => {
  it('accepts exactly 20 of 30 concurrent e-mailed reports of one caller; the others get 429 with Retry-After', async () => {
    await awayFromHourEnd();
    const before = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post(`/v2/${i % 2 ? 'groups' : 'departments'}/exports?email=it${i}@example.com`)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(EMAILED_REPORTS_PER_HOUR);
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(30 - EMAILED_REPORTS_PER_HOUR);
    const untilHourEnd = (HOUR_MS - (before % HOUR_MS)) / 1000;
    for (const response of refused) {
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body).toMatchObject({ type: '/problems/too-many-requests', title: 'Too many requests', status: 429 });
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilHourEnd));
      expect(retryAfter).toBeGreaterThan(untilHourEnd - 30);
    }
    // A refused request created nothing: one audited report per accepted one.
    expect(await reportAuditEntries()).toBe(EMAILED_REPORTS_PER_HOUR);

    // Still refused one by one; a report without e-mail is not limited.
    expect((await api.post('/v2/departments/exports?email=late@example.com')).status).toBe(429);
    const plain = await api.post('/v2/departments/exports');
    expect(plain.status, plain.text).toBe(202);
    expect(plain.body.email).toBeNull();
  });

  it('counts each caller apart, refuses the 21st, and starts afresh the next hour; the counter expires by TTL', async () => {
    const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS + 2 * HOUR_MS; // an hour no other test uses
    const at = new Date(hour + 10 * 60_000);
    const caller = (actor: string) => ({ actor, operationId: 'E9', requestId: 'test' });
    const race = (actor: string, count: number) =>
      Array.from({ length: count }, () => createReport(caller(actor), 'departments', ['a@example.com'], at));
    const [created, others] = await Promise.all([
      Promise.allSettled(race('other', EMAILED_REPORTS_PER_HOUR + 5)),
      Promise.allSettled(race('someone-else', EMAILED_REPORTS_PER_HOUR)),
    ]);
    expect(created.filter((result) => result.status === 'fulfilled')).toHaveLength(EMAILED_REPORTS_PER_HOUR);
    for (const result of created.filter((result) => result.status === 'rejected')) {
      const problem = result.reason as Problem;
      expect(problem).toBeInstanceOf(Problem);
      expect(problem.slug).toBe('too-many-requests');
      expect(problem.retryAfterSeconds).toBe(50 * 60);
    }
    // Another caller in the same hour has its own 20; the same caller an hour later too.
    expect(others.filter((result) => result.status === 'fulfilled')).toHaveLength(EMAILED_REPORTS_PER_HOUR);
    await expect(createReport(caller('someone-else'), 'groups', ['b@example.com'], at)).rejects.toMatchObject({
      slug: 'too-many-requests',
    });
    await expect(createReport(caller('other'), 'groups', ['b@example.com'], new Date(hour + HOUR_MS))).resolves.toMatchObject({
      email: { status: 'pending' },
    });
    const counter = await getItem({ pk: 'REPORTMAILS#other', sk: new Date(hour).toISOString() });
    expect(counter).toMatchObject({ n: EMAILED_REPORTS_PER_HOUR });
    expect(counter![TTL_ATTRIBUTE]).toBeGreaterThanOrEqual((hour + HOUR_MS) / 1000);
  });
});
