/**
 * How many parts the bulk-move protocol splits a test's move into
 * (lib/departments/bulk-move/driver.ts): its transactions are the
 * reservation, one hold per part (the last one commits), one apply per part
 * and the finish. Tests that inject faults at chosen transactions count
 * them from here, with users shaped like the ones they create.
 */
import { packParts } from '../../lib/departments/bulk-move/writes';
import type { StoredUser } from '../../lib/store/users';

export function bulkParts(options: { users: number; lastName: string; from: string[]; target: string | null }): number {
  const users = Array.from({ length: options.users }, (_, j): StoredUser => ({
    id: `u${String(j).padStart(5, '0')}`,
    email: `u${j}@example.com`,
    user_name: `u${j}@example.com`,
    external_id: null,
    first_name: '',
    last_name: options.lastName,
    account_role: (j % 50) % 3 === 0 ? 'admin' : 'member',
    activated: (j % 50) % 2 === 0,
    last_login: null,
    department_id: options.from[j % options.from.length],
    created_at: '',
    updated_at: '',
    version: 1,
  }));
  return packParts(users, options.target).length;
}
