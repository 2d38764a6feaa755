/**
 * The checks of lib/scim/input.ts without DynamoDB: a change is held to the
 * rules only in what it changes (a value stored before SCIM kept them does
 * not block an identity provider's deactivation), and a refusal of many
 * values says a few of them, shortened.
 */
import { describe, expect, it } from 'vitest';
import { checkGroupChange, checkMemberIds, userFields, type Canonical } from '../../lib/scim/input';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const user: Canonical = {
  userName: 'ann@example.com',
  name: { givenName: 'Ann', familyName: 'Lee' },
  emails: [{ value: 'ann@example.com', type: 'work', primary: true }],
  active: true,
  roles: [{ value: 'member', primary: true }],
  [ENTERPRISE]: { department: 'Eng' },
};
const refused = (detail: string) => expect.objectContaining({ scimType: 'invalidValue', status: 400, message: detail });

describe('userFields', () => {
  it('refuses a new user out of the rules, naming the attribute a value came from', () => {
    expect(() => userFields({ ...user, name: { givenName: 'A\u0001', familyName: 'Lee' } })).toThrow(
      refused('name.givenName: must not contain control characters'),
    );
    // No emails: the userName is the address, and is checked as one.
    expect(() => userFields({ ...user, userName: 'ann@', emails: undefined })).toThrow(
      refused('userName (the e-mail address when emails has none): must be an e-mail address'),
    );
    // No familyName: the displayName stands in, and is checked as a last name.
    expect(() => userFields({ ...user, name: { givenName: 'Ann' }, displayName: 'x'.repeat(201) })).toThrow(
      refused('displayName (the family name when name.familyName is absent): must be at most 200 characters'),
    );
    expect(() => userFields({ ...user, roles: [{ value: 'owner' }] })).toThrow(
      refused('roles.value: must be one of admin, manager, member, guest'),
    );
  });

  it('checks a change only in the values it changes', () => {
    // As stored before these rules held for SCIM.
    const before = { user_name: 'ann@example.com', email: 'not-an-email', first_name: 'A\u0001', last_name: 'Lee', department: 'Eng\r\n' };
    const stored = { ...user, name: { givenName: 'A\u0001', familyName: 'Lee' }, emails: [{ value: 'not-an-email', primary: true }] };
    const deactivated = { ...stored, active: false, [ENTERPRISE]: { department: 'Eng\r\n' } };
    expect(userFields(deactivated, before)).toMatchObject({ activated: false, email: 'not-an-email' });
    expect(() => userFields({ ...deactivated, emails: [{ value: 'still-not-one' }] }, before)).toThrow(
      refused('emails.value: must be an e-mail address'),
    );
    expect(() => userFields({ ...deactivated, [ENTERPRISE]: { department: 'x'.repeat(201) } }, before)).toThrow(
      refused(`${ENTERPRISE}:department: must be at most 200 characters`),
    );
    // A new user has no values to keep: all of them are checked.
    expect(() => userFields(deactivated)).toThrow(
      refused('emails.value: must be an e-mail address; name.givenName: must not contain control characters'),
    );
  });
});

describe('group checks', () => {
  it('names a few bad members, shortened, and counts the rest', () => {
    const ids = ['ok', ...Array.from({ length: 8 }, (_, i) => `bad.${i}`), 'y'.repeat(3000)];
    expect(() => checkMemberIds(ids)).toThrow(
      refused(
        [0, 1, 2, 3, 4].map((i) => `members[value eq "bad.${i}"]: must be 1–64 characters of A–Z, a–z, 0–9, _ or -`).join('; ') +
          '; and 4 more',
      ),
    );
    expect(() => checkMemberIds([`${'z'.repeat(3000)}`])).toThrow(
      refused(`members[value eq "${'z'.repeat(64)}… (3000 characters)"]: must be 1–64 characters of A–Z, a–z, 0–9, _ or -`),
    );
    expect(() => checkMemberIds(['a', 'b'])).not.toThrow();
  });

  it('a change of name or external id by the rules of PATCH /v2/groups/{id}; null removes the external id', () => {
    expect(() => checkGroupChange({ name: 'g'.repeat(201) })).toThrow(refused('displayName: must be at most 200 characters'));
    expect(() => checkGroupChange({ external_id: 'e\u0001' })).toThrow(refused('externalId: must not contain control characters'));
    expect(() => checkGroupChange({ name: undefined, external_id: null })).not.toThrow();
  });
});
