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

/** The department `reference` names: its id and name, created when unknown (see the top of this file). */
export async function resolveDepartment(ctx: ChangeContext, reference: string): Promise<{ id: string; name: string }> {
  // Eventually consistent look-ups: the user's transaction checks that the department exists.
  const byId = await findDepartment(reference, false);
  if (byId) return { id: byId.id, name: byId.name };
  const [byName] = await findDepartmentsByName(reference);
  if (byName) return { id: byName.id, name: byName.name };
  // Before making one, make sure a department of that id was not created a moment ago.
  const created = await findDepartment(reference);
  if (created) return { id: created.id, name: created.name };
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
  return { id, name: reference };
}
