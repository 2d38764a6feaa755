/**
 * SCIM PATCH (RFC 7644 §3.5.2) as Okta and Entra send it.
 *
 * `normalizeOperations` turns a PatchOp body into plain operations: `op` in
 * any case (`"Replace"`), an empty path as none, a path-less add or replace
 * split into one operation per key (Entra's `{"name.givenName": …}`, Okta's
 * `{"active": false}`), Entra's removal of members by value
 * (`{"op":"Remove","path":"members","value":[{"value":"u1"}]}`) kept apart
 * from the removal of every member (no value).
 *
 * A user's operations apply to the user as a canonical SCIM resource
 * (`applyToUser`), which is then mapped back to the service's fields and
 * written in one transaction: every operation or none. A group's become
 * a membership delta and attribute changes (`groupChanges`): the members are
 * never materialised as a document to patch. Nothing here reads or writes:
 * a body in, operations, a changed resource or a group's changes out (the
 * callers in users.ts and groups.ts do the I/O).
 *
 * No library applies the operations: the one made for it (`scim-patch`) is at
 * 0.8.3 on this registry, with known prototype-pollution bugs fixed only in
 * 0.9.3; this code writes only attributes the schemas list, so `__proto__`
 * and friends can never be a target.
 */
import { invalidPath, invalidSyntax, invalidValue, noTarget } from './errors';
import { matches, parseFilter, type Resolved } from './filter';
import { canonicalValue, memberIdsOf, type Canonical } from './input';
import { NO_CONTROL_CHARACTERS } from '../text';
import { ENTERPRISE_SCHEMA, isStandardButUnkept, resolvePath, type AttributePath } from './schema';

export interface Operation {
  op: 'add' | 'remove' | 'replace';
  path?: string;
  value?: unknown;
}

type Kind = 'User' | 'Group';

/** Checks and normalises a PatchOp body (see the top of this file). */
export function normalizeOperations(body: unknown): Operation[] {
  if (typeof body !== 'object' || body === null) throw invalidSyntax('The body must be a PatchOp object.');
  const raw = Object.entries(body).find(([key]) => key.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(raw) || raw.length === 0) throw invalidSyntax('Operations must be a non-empty array.');
  const operations: Operation[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) throw invalidSyntax('Each operation must be an object.');
    const fields = Object.fromEntries(Object.entries(entry).map(([key, value]) => [key.toLowerCase(), value]));
    const op = typeof fields.op === 'string' ? fields.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      throw invalidSyntax(`Unknown op "${String(fields.op)}": add, remove or replace.`);
    const path = typeof fields.path === 'string' && fields.path.trim() !== '' ? fields.path.trim() : undefined;
    if (fields.path !== undefined && typeof fields.path !== 'string') throw invalidPath('path must be a string.');
    if (op === 'remove' && path === undefined) throw noTarget('A remove needs a path.');
    if (path !== undefined || op === 'remove') {
      operations.push({ op, path, value: fields.value });
      continue;
    }
    // No path: the value is a partial resource; each of its attributes is an operation of its own.
    const value = fields.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw invalidValue('An add or replace without a path needs an object value.');
    for (const [key, sub] of Object.entries(value)) {
      if (key.toLowerCase() === ENTERPRISE_SCHEMA.toLowerCase() && sub && typeof sub === 'object') {
        for (const [name, inner] of Object.entries(sub)) operations.push({ op, path: `${ENTERPRISE_SCHEMA}:${name}`, value: inner });
      } else {
        operations.push({ op, path: key, value: sub });
      }
    }
  }
  return operations;
}

/** Whether any operation names the enterprise extension (its `department`, or the extension whole). */
export function touchesExtension(operations: Operation[]): boolean {
  const urn = ENTERPRISE_SCHEMA.toLowerCase();
  return operations.some((operation) => operation.path?.toLowerCase().startsWith(urn) ?? false);
}

/** A path: its attribute, an optional value filter, an optional sub-attribute after the filter. */
interface Target {
  path: AttributePath;
  filter?: Resolved;
  /** The sub-attribute named after a filter (`emails[type eq "work"].value`). */
  after?: string;
}

/** A path that names no attribute the service keeps: skipped if it is a standard one (schema.ts isStandardButUnkept), else 400. */
function unkept(kind: Kind, text: string): undefined {
  if (isStandardButUnkept(kind, text)) return undefined;
  throw invalidPath(`"${text}" is no attribute of the ${kind} schemas.`);
}

/** The longest PATCH path read (docs/identity-providers.md): `urn:…:User:department` and Entra's value paths are far shorter. */
export const MAX_PATH_LENGTH = 500;

/** The target of a path; undefined for a standard attribute the service does not keep (that operation is skipped). */
function targetOf(kind: Kind, text: string): Target | undefined {
  if (text.length > MAX_PATH_LENGTH) throw invalidPath(`A path has at most ${MAX_PATH_LENGTH} characters.`);
  if (!NO_CONTROL_CHARACTERS.test(text)) throw invalidPath('A path must not contain control characters.');
  const open = text.indexOf('[');
  if (open < 0) {
    const path = resolvePath(kind, text);
    return path ? { path } : unkept(kind, text);
  }
  const close = text.lastIndexOf(']');
  if (close < open) throw invalidPath(`"${text}" has an unclosed value filter.`);
  const path = resolvePath(kind, text.slice(0, open));
  if (!path) return unkept(kind, text);
  if (path.sub || path.attribute.type !== 'complex' || !path.attribute.multiValued) {
    throw invalidPath(`"${text.slice(0, open)}" is not a multi-valued attribute that a value filter can select in.`);
  }
  const filterText = text.slice(open + 1, close);
  // The filter is read as a value path of that attribute, so its names resolve among the sub-attributes.
  const resolved = parseFilter(kind, `${path.canonical}[${filterText}]`);
  if (resolved.op !== '[]') throw invalidPath(`"${text}" is not a value path.`);
  const rest = text.slice(close + 1);
  if (rest !== '' && !rest.startsWith('.')) throw invalidPath(`"${text}" does not name a sub-attribute after its filter.`);
  const after =
    rest === '' ? undefined : path.attribute.subAttributes?.find((a) => a.name.toLowerCase() === rest.slice(1).toLowerCase())?.name;
  if (rest !== '' && !after) return unkept(kind, text);
  return { path, filter: resolved.filter, after };
}

// --- users -------------------------------------------------------------------------------

const holderOf = (resource: Canonical, path: AttributePath): Canonical =>
  path.schema === ENTERPRISE_SCHEMA ? ((resource[ENTERPRISE_SCHEMA] ??= {}) as Canonical) : resource;

/** The element the filter's equalities describe, for an add through a filter that matches nothing (Entra). */
function elementFromFilter(filter: Resolved): Canonical {
  const element: Canonical = {};
  const parts = filter.op === 'and' ? filter.filters : [filter];
  for (const part of parts) if (part.op === 'eq' && part.path.sub) element[part.path.sub.name] = part.value;
  return element;
}

function applyOne(resource: Canonical, operation: Operation, kind: Kind): void {
  const target = targetOf(kind, operation.path!);
  if (!target) return; // a standard attribute the service does not keep: accepted, not kept
  const { path, filter, after } = target;
  const attribute = path.attribute;
  if (attribute.mutability === 'readOnly' || attribute.name === 'meta') return;
  const holder = holderOf(resource, path);
  const what = operation.path!;

  if (filter) {
    const list = ((holder[attribute.name] as Canonical[] | undefined) ?? []).slice();
    const selected = list.filter((element) => matches(filter, resource, element));
    const sub = after ? attribute.subAttributes!.find((a) => a.name === after)! : undefined;
    if (operation.op === 'remove') {
      holder[attribute.name] = sub
        ? list.map((element) =>
            selected.includes(element) ? Object.fromEntries(Object.entries(element).filter(([k]) => k !== sub.name)) : element,
          )
        : list.filter((element) => !selected.includes(element));
      return;
    }
    const value = sub
      ? canonicalValue(sub, operation.value, what)
      : canonicalValue({ ...attribute, multiValued: false }, operation.value, what);
    const change = (element: Canonical): Canonical => (sub ? { ...element, [sub.name]: value } : { ...element, ...(value as Canonical) });
    holder[attribute.name] =
      selected.length > 0 ? list.map((e) => (selected.includes(e) ? change(e) : e)) : [...list, change(elementFromFilter(filter))];
    return;
  }

  if (path.sub) {
    const sub = path.sub;
    const current = holder[attribute.name];
    if (attribute.multiValued) {
      // `emails.value` without a filter: every element (one, here), or a new one.
      const list = (Array.isArray(current) ? current : []) as Canonical[];
      if (operation.op === 'remove')
        holder[attribute.name] = list.map((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== sub.name)));
      else {
        const value = canonicalValue(sub, operation.value, what);
        holder[attribute.name] = list.length > 0 ? list.map((e) => ({ ...e, [sub.name]: value })) : [{ [sub.name]: value }];
      }
      return;
    }
    const object = { ...((current as Canonical | undefined) ?? {}) };
    if (operation.op === 'remove') delete object[sub.name];
    else object[sub.name] = canonicalValue(sub, operation.value, what);
    holder[attribute.name] = object;
    return;
  }

  if (operation.op === 'remove') {
    if (attribute.multiValued && operation.value !== undefined && operation.value !== null) {
      // Removal by value (Entra): the elements whose value is one of those given.
      const gone = new Set(memberIdsOf(operation.value).map((v) => v.toLowerCase()));
      const list = (holder[attribute.name] as Canonical[] | undefined) ?? [];
      holder[attribute.name] = list.filter((e) => !gone.has(String(e.value).toLowerCase()));
    } else {
      delete holder[attribute.name];
    }
    return;
  }
  const value = canonicalValue(attribute, operation.value, what);
  if (value === null) {
    // null is "unassigned" (RFC 7643 §2.5): the attribute is cleared, for add and replace alike.
    delete holder[attribute.name];
    return;
  }
  if (attribute.multiValued) {
    const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== null) as Canonical[];
    const existing = operation.op === 'add' ? ((holder[attribute.name] as Canonical[] | undefined) ?? []) : [];
    // A new primary element makes the others secondary (RFC 7643 §2.4).
    const kept = items.some((item) => item.primary === true) ? existing.map((e) => ({ ...e, primary: false })) : existing;
    holder[attribute.name] = [...kept, ...items];
  } else if (attribute.type === 'complex') {
    // Sub-attributes not given are left as they are, for add and replace alike.
    holder[attribute.name] = { ...((holder[attribute.name] as Canonical | undefined) ?? {}), ...(value as Canonical) };
  } else {
    holder[attribute.name] = value;
  }
}

/** Applies the operations, in order, to a copy of a canonical user. */
export function applyToUser(user: Canonical, operations: Operation[]): Canonical {
  const resource = structuredClone(user);
  for (const operation of operations) applyOne(resource, operation, 'User');
  return resource;
}

// --- groups ------------------------------------------------------------------------------

export interface GroupChanges {
  name?: string;
  /** null: removed. */
  external_id?: string | null;
  /** Every current member goes first (a removal of all, or a replace of `members`). */
  clear: boolean;
  adds: Set<string>;
  removes: Set<string>;
}

/** The changes a group's operations make, in order (see the top of this file). */
export function groupChanges(operations: Operation[]): GroupChanges {
  const changes: GroupChanges = { clear: false, adds: new Set(), removes: new Set() };
  const add = (id: string) => {
    changes.adds.add(id);
    changes.removes.delete(id);
  };
  const remove = (id: string) => {
    changes.adds.delete(id);
    if (!changes.clear) changes.removes.add(id);
  };
  for (const operation of operations) {
    const target = targetOf('Group', operation.path!);
    if (!target) continue;
    const name = target.path.attribute.name;
    if (name === 'members') {
      if (target.path.sub || target.after) throw invalidPath('Members are added and removed whole, by value.');
      if (operation.op === 'remove') {
        if (target.filter) {
          const ids = equalValues(target.filter);
          if (!ids) throw invalidPath('A members filter selects by value: members[value eq "<user id>"].');
          ids.forEach(remove);
        } else if (operation.value !== undefined && operation.value !== null) {
          memberIdsOf(operation.value).forEach(remove);
        } else {
          changes.clear = true;
          changes.adds.clear();
          changes.removes.clear();
        }
        continue;
      }
      if (target.filter) throw invalidPath('Members are added by value, without a filter.');
      if (operation.op === 'replace') {
        changes.clear = true;
        changes.adds.clear();
        changes.removes.clear();
      }
      if (operation.value !== undefined && operation.value !== null) memberIdsOf(operation.value).forEach(add);
      continue;
    }
    if (name === 'displayName') {
      if (operation.op === 'remove') throw invalidValue('displayName cannot be removed.');
      if (typeof operation.value !== 'string' || operation.value.trim() === '')
        throw invalidValue('displayName must be a non-empty string.');
      changes.name = operation.value;
    } else if (name === 'externalId') {
      if (operation.op === 'remove' || operation.value === null || operation.value === '') changes.external_id = null;
      else if (typeof operation.value === 'string') changes.external_id = operation.value;
      else throw invalidValue('externalId must be a string.');
    }
  }
  return changes;
}

/** The values a members filter selects: `value eq "u"`, or several of them joined by `or`. */
function equalValues(filter: Resolved): string[] | undefined {
  if (filter.op === 'or') {
    const parts = filter.filters.map(equalValues);
    return parts.every((p) => p !== undefined) ? (parts.flat() as string[]) : undefined;
  }
  if (filter.op === 'eq' && filter.path.sub?.name === 'value' && typeof filter.value === 'string') return [filter.value];
  return undefined;
}
