/** Departments: representation, create, read, rename, list and E8 delete. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { DEPARTMENTS_PARTITION, departmentIndexAttributes, departmentKey } from '../db/keys';
import type { Item } from '../db/query';
import { transactWrite, type Write } from '../db/transact';
import { conflict, DomainError, notFound, preconditionFailed, validationError } from '../errors';
import { newId } from '../ids';
import { foldCase } from '../text';
import { auditWrite, type ChangeContext } from './audit';
import { listNamed, type NamedListParams } from './named-list';
import { COUNTED_QUOTAS, usageAttribute } from './quotas';
import { DEPARTMENTS_COUNTER, statsUpdate } from './stats';

export interface Department {
  id: string;
  name: string;
  user_count: number;
  created_at: string;
  updated_at: string;
}

export interface StoredDepartment extends Department {
  version: number;
}

/** Path words under /v2/departments that cannot be department ids. */
export const RESERVED_DEPARTMENT_IDS = ['users', 'exports'];

export function toDepartment(item: Item): StoredDepartment {
  return {
    id: String(item.id),
    name: String(item.name),
    user_count: Number(item[usageAttribute('users')] ?? 0),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    version: Number(item.version),
  };
}

export const departmentRepresentation = ({ version: _version, ...department }: StoredDepartment): Department => department;

export async function findDepartmentItem(id: string): Promise<Item | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: departmentKey(id), ConsistentRead: true }));
  return result.Item;
}

export async function getDepartment(id: string): Promise<StoredDepartment> {
  const item = await findDepartmentItem(id);
  if (!item) throw notFound('Department', id);
  return toDepartment(item);
}

function departmentAttributes(id: string, name: string) {
  return { id, name, name_folded: foldCase(name), ...departmentIndexAttributes({ id, name }) };
}

export async function createDepartment(ctx: ChangeContext, input: { id?: string; name: string }): Promise<StoredDepartment> {
  const id = input.id ?? newId();
  if (RESERVED_DEPARTMENT_IDS.includes(id)) {
    throw validationError([{ field: 'id', message: `"${id}" is reserved; choose another id` }]);
  }
  const now = new Date().toISOString();
  const counters = Object.fromEntries(COUNTED_QUOTAS.map((q) => [usageAttribute(q), 0]));
  const item = {
    ...departmentKey(id),
    type: 'department',
    ...departmentAttributes(id, input.name),
    ...counters,
    created_at: now,
    updated_at: now,
    version: 1,
  };
  const department = toDepartment(item);
  await transactWrite([
    {
      item: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      explain: () => conflict(`A department with id "${id}" already exists.`, { field: 'id' }),
    },
    { item: statsUpdate(id, { [DEPARTMENTS_COUNTER]: 1 })! },
    auditWrite(ctx, { resourceType: 'department', resourceId: id, changes: { created: departmentRepresentation(department) } }, now),
  ]);
  return department;
}

/** Explains a failed "exists [and is at version]" condition from the department as it stood. */
const missingOrStale = (id: string) => (stored: Item | undefined) => (stored ? preconditionFailed() : notFound('Department', id));

export async function renameDepartment(ctx: ChangeContext, id: string, name: string, expectedVersion?: number): Promise<StoredDepartment> {
  const now = new Date().toISOString();
  const { name_folded, gsi1sk } = departmentAttributes(id, name);
  const values: Record<string, unknown> = { ':name': name, ':folded': name_folded, ':sk': gsi1sk, ':now': now, ':one': 1 };
  let condition = 'attribute_exists(pk)';
  if (expectedVersion !== undefined) {
    condition += ' AND version = :expected';
    values[':expected'] = expectedVersion;
  }
  const rename: Write = {
    item: {
      Update: {
        TableName: tableName(),
        Key: departmentKey(id),
        UpdateExpression: 'SET #name = :name, name_folded = :folded, gsi1sk = :sk, updated_at = :now ADD version :one',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    explain: missingOrStale(id),
  };
  await transactWrite([rename, auditWrite(ctx, { resourceType: 'department', resourceId: id, changes: { name } }, now)]);
  return getDepartment(id);
}

/**
 * E8. The delete is conditional on the department having no users; every
 * addition is conditional on the department existing. Both conditions are on
 * the same item, so a delete and an addition can never both win.
 */
export async function deleteDepartment(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  const now = new Date().toISOString();
  const values: Record<string, unknown> = { ':zero': 0 };
  let condition = `attribute_exists(pk) AND ${usageAttribute('users')} = :zero`;
  if (expectedVersion !== undefined) {
    condition += ' AND version = :expected';
    values[':expected'] = expectedVersion;
  }
  await transactWrite([
    {
      item: {
        Delete: {
          TableName: tableName(),
          Key: departmentKey(id),
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      explain: (stored) => {
        if (!stored) return notFound('Department', id);
        // A stale tag is answered first (RFC 9110 evaluates preconditions before the method).
        if (expectedVersion !== undefined && stored.version !== expectedVersion) return preconditionFailed();
        const userCount = Number(stored[usageAttribute('users')] ?? 0);
        if (userCount > 0) {
          return new DomainError('department-not-empty', `Department "${id}" still has ${userCount} user(s); remove them first (E4/E5).`, {
            user_count: userCount,
          });
        }
        return preconditionFailed();
      },
    },
    { item: statsUpdate(id, { [DEPARTMENTS_COUNTER]: -1 })! },
    auditWrite(ctx, { resourceType: 'department', resourceId: id, changes: { deleted: true } }, now),
  ]);
}

export async function listDepartments(params: NamedListParams) {
  const { items, ...page } = await listNamed(
    { partition: DEPARTMENTS_PARTITION, counter: DEPARTMENTS_COUNTER, toResource: (item) => departmentRepresentation(toDepartment(item)) },
    params,
  );
  return { departments: items, ...page };
}
