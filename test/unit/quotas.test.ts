import { describe, expect, it } from 'vitest';
import { NO_USAGE, overagesOf, usageOf } from '../../lib/departments/quotas';
import type { StoredDepartment } from '../../lib/store/departments';

const NO_LIMITS = { users: null, activated_users: null, admins: null, managers: null, guests: null };
const department = (usage: Partial<StoredDepartment['usage']>, limits: Partial<StoredDepartment['limits']> = {}) =>
  ({ usage: { ...NO_USAGE, ...usage }, limits: { ...NO_LIMITS, ...limits } }) as StoredDepartment;

describe('usageOf', () => {
  it('counts a member in users and in the quotas its role and activation select', () => {
    expect(usageOf({ account_role: 'admin', activated: true })).toEqual({
      users: 1,
      activated_users: 1,
      admins: 1,
      managers: 0,
      guests: 0,
    });
    expect(usageOf({ account_role: 'member', activated: false })).toEqual({
      users: 1,
      activated_users: 0,
      admins: 0,
      managers: 0,
      guests: 0,
    });
  });
});

describe('overagesOf', () => {
  it('lists every quota an addition would exceed, with usage + requested - limit', () => {
    const stored = department({ users: 10, activated_users: 4, admins: 2, managers: 0, guests: 0 }, { users: 10, admins: 3, guests: 5 });
    const overages = overagesOf(stored, { users: 2, activated_users: 2, admins: 2, managers: 0, guests: 0 });
    expect(overages).toEqual([
      { quota: 'users', limit: 10, usage: 10, requested: 2, overage: 2 },
      { quota: 'admins', limit: 3, usage: 2, requested: 2, overage: 1 },
    ]);
  });

  it('includes seats from DEPARTMENT_SEATS', () => {
    process.env.DEPARTMENT_SEATS = '3';
    try {
      const overages = overagesOf(department({ users: 3 }), { users: 1, activated_users: 0, admins: 0, managers: 0, guests: 0 });
      expect(overages).toEqual([{ quota: 'seats', limit: 3, usage: 3, requested: 1, overage: 1 }]);
    } finally {
      delete process.env.DEPARTMENT_SEATS;
    }
  });

  it('is empty when a limit below usage is not raised by the change', () => {
    expect(
      overagesOf(department({ users: 5, admins: 5 }, { admins: 1 }), { users: 1, activated_users: 0, admins: 0, managers: 0, guests: 0 }),
    ).toEqual([]);
  });
});
