/** The business metrics as the functions write them: CloudWatch embedded metric format lines in their output (lib/metrics.ts). */
import { describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../../lib/config';
import { useApi } from '../support/api';
import { createDepartment, unique } from '../support/fixtures';
import { captureFunctionOutput } from '../support/function-output';
import { scimClient, USER_SCHEMA } from '../support/scim';

const api = useApi();
const output = captureFunctionOutput(api);

/** One metric value as an EMF line states it: the line's namespace and dimensions, the metric's unit and value. */
interface MetricValue {
  namespace: string;
  dimensions: Record<string, string>;
  unit: string;
  value: unknown;
}

/** Every value of `name` in the EMF lines written so far; other lines (logs) are skipped. */
function metricValues(name: string): MetricValue[] {
  const values: MetricValue[] = [];
  for (const line of output.lines()) {
    if (!line.startsWith('{')) continue;
    const record = JSON.parse(line) as Record<string, unknown> & {
      _aws?: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> };
    };
    for (const directive of record._aws?.CloudWatchMetrics ?? []) {
      const metric = directive.Metrics.find((m) => m.Name === name);
      if (!metric) continue;
      // One dimension set per line (lib/metrics.ts): each value counts once.
      expect(directive.Dimensions).toHaveLength(1);
      const dimensions = Object.fromEntries(directive.Dimensions[0].map((key) => [key, String(record[key])]));
      values.push({ namespace: directive.Namespace, dimensions, unit: metric.Unit, value: record[name] });
    }
  }
  return values;
}

async function newUser(): Promise<string> {
  const id = unique('u');
  const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Metered' });
  expect(response.status, response.text).toBe(201);
  return id;
}

describe('business metrics in the functions’ output', () => {
  it('a quota refusal: QuotaRefusals by quota, and the move before it', async () => {
    const department = await createDepartment(api, { users: 1 });
    const [first, second] = [await newUser(), await newUser()];
    output.clear();
    expect((await api.post(`/v2/departments/${department}/users/${first}`)).status).toBe(200);
    const refused = await api.post(`/v2/departments/${department}/users/${second}`);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.type).toBe('/problems/quota-exceeded');

    expect(metricValues('QuotaRefusals')).toEqual([
      { namespace: METRICS_NAMESPACE, dimensions: { service: SERVICE_NAME, Quota: 'users' }, unit: 'Count', value: 1 },
    ]);
    expect(metricValues('UserMoves')).toEqual([
      { namespace: METRICS_NAMESPACE, dimensions: { service: SERVICE_NAME, Operation: 'E2' }, unit: 'Count', value: 1 },
    ]);
  });

  it('a SCIM create: ScimRequests by method and outcome', async () => {
    const scim = scimClient(api);
    await scim.token(); // made through the admin API, which counts no SCIM request
    output.clear();
    const name = unique('ada');
    const created = await scim.post('/Users', {
      schemas: [USER_SCHEMA],
      userName: `${name}@example.com`,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      active: true,
    });
    expect(created.status, created.text).toBe(201);
    const again = await scim.post('/Users', { schemas: [USER_SCHEMA], userName: `${name}@example.com` });
    expect(again.status, again.text).toBe(409);

    expect(metricValues('ScimRequests')).toEqual([
      { namespace: METRICS_NAMESPACE, dimensions: { service: SERVICE_NAME, Method: 'POST', Outcome: '2xx' }, unit: 'Count', value: 1 },
      { namespace: METRICS_NAMESPACE, dimensions: { service: SERVICE_NAME, Method: 'POST', Outcome: '4xx' }, unit: 'Count', value: 1 },
    ]);
  });

  it('an Idempotency-Key replay: IdempotentReplays, though middy answers it before the operation runs', async () => {
    const department = await createDepartment(api);
    const user = await newUser();
    output.clear();
    const headers = { 'idempotency-key': unique('key') };
    const first = await api.post(`/v2/departments/${department}/users/${user}`, undefined, { headers });
    const replayed = await api.post(`/v2/departments/${department}/users/${user}`, undefined, { headers });
    expect([first.status, replayed.status]).toEqual([200, 200]);
    expect(metricValues('IdempotentReplays').map(({ value }) => value)).toEqual([1]);
    expect(metricValues('UserMoves').map(({ value }) => value)).toEqual([1]);
  });
});
