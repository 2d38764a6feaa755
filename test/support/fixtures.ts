/** Small builders the test files share. */
import { expect } from 'vitest';
import type { User } from '../../lib/schemas/responses';
import type { Api } from './api';

let sequence = 0;

/** A prefix made unique within the run (tests of one file share a table). */
export const unique = (prefix: string) => `${prefix}${++sequence}${Math.random().toString(36).slice(2, 8)}`;

/** A new department with these quota limits; answers its id. */
export async function createDepartment(api: Api, limits: Record<string, number> = {}, namePrefix = 'Dept '): Promise<string> {
  const response = await api.post('/v2/departments', { id: unique('d'), name: unique(namePrefix) });
  expect(response.status, response.text).toBe(201);
  for (const [name, limit] of Object.entries(limits)) {
    const set = await api.put(`/v2/departments/${response.body.id}/quotas`, { name, limit });
    expect(set.status, set.text).toBe(200);
  }
  return response.body.id as string;
}

/** A new user (these fields over an e-mail and last name of its own), in `departmentId` when given; answers its id. */
export async function createUser(api: Api, fields: Record<string, unknown> = {}, departmentId?: string): Promise<string> {
  const id = unique('u');
  const response = await api.post('/v2/users', { id, email: `${id}@example.com`, last_name: 'Member', ...fields });
  expect(response.status, response.text).toBe(201);
  if (departmentId) expect((await api.post(`/v2/departments/${departmentId}/users/${id}`)).status).toBe(200);
  return id;
}

/** A user as the service answers it, for checks that need no stored user. */
export const ADA: User = {
  id: 'ada',
  user_name: 'ada@example.com',
  external_id: null,
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  account_role: 'member',
  activated: false,
  last_login: null,
  department_id: null,
  created_at: '2026-11-21T09:30:00.000Z',
  updated_at: '2026-11-21T09:30:00.000Z',
};

/** Every audit entry at or after `since`, newest first, walked by GET /v2/audit's cursor. */
export async function auditSince(api: Api, since: string): Promise<any[]> {
  const all: any[] = [];
  for (let cursor: string | null = null; ;) {
    const page = await api.get(`/v2/audit?count=1000&since=${since}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, page.text).toBe(200);
    all.push(...page.body.entries);
    cursor = page.body.next_cursor;
    if (cursor === null) return all;
  }
}
