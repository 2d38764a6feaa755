/**
 * The enterprise `department` of a SCIM user, resolved to a department of
 * the service: the one whose id it is, else the one whose name it is
 * (case-insensitively; the oldest id if several share it), else a new one of
 * that name — unless the deployment says SCIM_CREATE_DEPARTMENTS=false, and
 * then 400 invalidValue.
 *
 * A department SCIM creates gets an id made from its name, so that two
 * requests that name it at once create it once: the second one's conditional
 * create fails and it finds the first's.
 */
import { createHash } from 'node:crypto';
import type { ChangeContext } from '../audit/context';
import { config } from '../config';
import { createDepartment } from '../departments/departments';
import { Problem } from '../problems';
import { findDepartment, findDepartmentsByName } from '../store/departments';
import { foldCase } from '../text';
import { invalidValue } from './errors';

const idFor = (name: string) => `scim-${createHash('sha256').update(foldCase(name)).digest('hex').slice(0, 24)}`;

/** The id of the department `reference` names, created when unknown (see the top of this file). */
export async function resolveDepartment(ctx: ChangeContext, reference: string): Promise<string> {
  const byId = await findDepartment(reference);
  if (byId) return byId.id;
  const [byName] = await findDepartmentsByName(reference);
  if (byName) return byName.id;
  if (!config().scimCreateDepartments) {
    throw invalidValue(`There is no department "${reference}", and this deployment does not create departments from SCIM.`);
  }
  const id = idFor(reference);
  try {
    await createDepartment(ctx, { id, name: reference });
  } catch (error) {
    // Created at the same time by another request: it is the one.
    if (!(error instanceof Problem && error.slug === 'conflict')) throw error;
  }
  return id;
}
