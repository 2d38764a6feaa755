/** The invariant checker must see corruption, or the race tests that rely on it prove nothing. */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { departmentKey } from '../../lib/store/departments';
import { departmentCopyKey, userKey } from '../../lib/store/users';
import { createDepartment } from '../../lib/departments/departments';
import { addUserToDepartment } from '../../lib/departments/membership';
import { createUser } from '../../lib/users/commands';
import { invariantViolations } from '../support/invariants';

const ctx = { actor: 'test', operationId: 'test', requestId: 'test' };

describe('invariantViolations', () => {
  it('is empty for a consistent table and names a drifted counter, a lost member and a stray index key', async () => {
    await createDepartment(ctx, { id: 'inv', name: 'Invariants' });
    await createUser(ctx, { id: 'inv-u1', email: 'inv-u1@example.com', last_name: 'One' });
    await createUser(ctx, { id: 'inv-u2', email: 'inv-u2@example.com', last_name: 'Two', account_role: 'admin' });
    await addUserToDepartment(ctx, 'inv', 'inv-u1');
    expect(await invariantViolations()).toEqual([]);

    const update = (key: Record<string, string>, expression: string, values: Record<string, unknown>) =>
      db().send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: expression, ExpressionAttributeValues: values }));
    await update(departmentKey('inv'), 'SET usage_admins = :n', { ':n': 1 });
    await update(userKey('inv-u2'), 'SET department_id = :d', { ':d': 'gone' });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: departmentKey('inv'),
        UpdateExpression: 'ADD #c :n',
        ExpressionAttributeNames: { '#c': 'C#member.00' },
        ExpressionAttributeValues: { ':n': 1 },
      }),
    );
    await db().send(new DeleteCommand({ TableName: tableName(), Key: departmentCopyKey('inv-u1') }));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: 'NAMES#USERS#OUT', sk: 'two' },
        UpdateExpression: 'ADD n :n',
        ExpressionAttributeValues: { ':n': 1 },
      }),
    );
    const violations = await invariantViolations();
    expect(violations).toEqual(
      expect.arrayContaining([
        'department inv counts admins=1 but has 0',
        'user inv-u2 is in missing department gone',
        expect.stringMatching(/^user inv-u2 has gsi1pk=USERS#OUT, expected USERS#IN/),
        expect.stringMatching(/^service counter USERS#IN#admin\.00=0, expected 1/),
        'department inv cell member.00=2, expected 1',
        'user inv-u1 of department inv has no department copy',
        'last-name counter USERS#OUT|two=2, expected 0',
      ]),
    );
  });
});
