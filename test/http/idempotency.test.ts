/** Idempotency-Key (docs/safety.md): replays, reuse with another request, and races of the same key. */
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { idempotencyKey } from '../../lib/store/idempotency';
import { useApi } from '../support/api';
import { scanTable } from '../support/invariants';
import { unique } from '../support/fixtures';

const api = useApi();
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('Idempotency-Key', () => {
  it('replays the first answer of a repeated create without creating again', async () => {
    const key = unique('key-');
    const body = { name: unique('Dept ') };
    const first = await api.post('/v2/departments', body, withKey(key));
    expect(first.status, first.text).toBe(201);
    const again = await api.post('/v2/departments', body, withKey(key));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const departments = (await scanTable()).filter((item) => item.type === 'department' && item.name === body.name);
    expect(departments).toHaveLength(1);
  });

  it('replays a report job instead of starting a second one', async () => {
    const key = unique('key-');
    const reports = async () => (await scanTable()).filter((item) => item.type === 'report').length;
    const before = await reports();
    const first = await api.post('/v2/departments/exports', undefined, withKey(key));
    const again = await api.post('/v2/departments/exports', undefined, withKey(key));
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await reports()).toBe(before + 1);
  });

  it('answers 422 idempotency-key-reused for the same key with another body or path', async () => {
    const key = unique('key-');
    expect((await api.post('/v2/departments', { name: unique('A ') }, withKey(key))).status).toBe(201);
    const otherBody = await api.post('/v2/departments', { name: unique('B ') }, withKey(key));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.type).toBe('/problems/idempotency-key-reused');
    const otherRoute = await api.post('/v2/users', { email: `${unique('e')}@example.com`, last_name: 'X' }, withKey(key));
    expect(otherRoute.status).toBe(422);
  });

  it('runs one of many parallel requests with the same key; the others replay it or get 409', async () => {
    const key = unique('key-');
    const body = { name: unique('Race ') };
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.post('/v2/departments', body, withKey(key))));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(),
    ).toBe(true);
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.type).toBe('/problems/conflict');
    expect((await scanTable()).filter((item) => item.type === 'department' && item.name === body.name)).toHaveLength(1);
  });

  it('stores nothing for a failed request, so a retry runs again', async () => {
    const key = unique('key-');
    const missing = await api.post('/v2/departments/nope/users/nobody', undefined, withKey(key));
    expect(missing.status).toBe(404);
    const again = await api.post('/v2/departments/nope/users/nobody', undefined, withKey(key));
    expect(again.status).toBe(404);
  });

  it('takes over a record left in progress by a request that died, once its time has run out', async () => {
    const key = unique('key-');
    const body = { name: unique('Orphan ') };
    const hash = (text: string) => createHash('sha256').update(text).digest('base64url');
    const record = {
      ...idempotencyKey(hash(key)),
      status: 'in_progress',
      payload_hash: hash(JSON.stringify(['POST', '/v2/departments', JSON.stringify(body)])),
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    };
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...record, in_progress_until: Date.now() + 60_000 } }));
    expect((await api.post('/v2/departments', body, withKey(key))).status).toBe(409); // still within its time
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...record, in_progress_until: Date.now() - 1 } }));
    expect((await api.post('/v2/departments', body, withKey(key))).status).toBe(201);
  });

  it('rejects a malformed key with 400 and ignores the header on reads', async () => {
    const bad = await api.post('/v2/departments', { name: 'X' }, withKey('has space'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('Idempotency-Key');
    expect((await api.post('/v2/departments', { name: 'Y' }, withKey('k'.repeat(256)))).status).toBe(400);
    expect((await api.get('/v2/departments', withKey('any'))).status).toBe(200);
  });
});
