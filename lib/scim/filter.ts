/**
 * SCIM filters (RFC 7644 §3.4.2.2): the syntax tree of filter-syntax.ts
 * resolved against the published schemas, and evaluated here against a
 * resource as the service answers it (which reads a filter takes is
 * filter-reads.ts).
 *
 * What the syntax leaves open is done here: attribute names resolve
 * case-insensitively against the published schemas (an unknown one → 400
 * invalidFilter), `members eq "u"` means `members.value`, strings compare
 * case-insensitively unless the attribute is caseExact (`userName` is not,
 * `id` and `externalId` are), a value path (`emails[type eq "work" and
 * value co "@x"]`) holds for one element, and Entra's
 * `emails[type eq "work"].value eq "x"` — outside the grammar, which the
 * parser reads as two clauses — is read as the value path it means.
 */
import { NO_CONTROL_CHARACTERS } from '../text';
import { invalidFilter } from './errors';
import { parseSyntax, type CompareOp, type CompareValue, type FilterSyntax } from './filter-syntax';
import { leafOf, resolvePath, type AttributePath } from './schema';

type Resource = Record<string, unknown>;
export type ResourceKind = 'User' | 'Group';

/** A filter whose every attribute path is canonical; each compare carries what it needs to compare. */
export type Resolved =
  | { op: 'and' | 'or'; filters: Resolved[] }
  | { op: 'not'; filter: Resolved }
  | { op: '[]'; path: AttributePath; filter: Resolved }
  | { op: 'pr'; path: AttributePath }
  | { op: CompareOp; path: AttributePath; value: CompareValue };

function resolveAttribute(kind: ResourceKind, path: string, inside?: AttributePath): AttributePath {
  const resolved = inside
    ? (() => {
        const sub = inside.attribute.subAttributes?.find((a) => a.name.toLowerCase() === path.toLowerCase());
        return sub && { ...inside, sub, canonical: `${inside.attribute.name}.${sub.name}` };
      })()
    : resolvePath(kind, path);
  if (!resolved) throw invalidFilter(`The filter names an attribute the service does not keep: "${path}".`);
  // A complex attribute compared as a whole means its value (`members eq "u"`, `emails co "@x"`).
  if (!resolved.sub && resolved.attribute.type === 'complex') {
    const value = resolved.attribute.subAttributes?.find((a) => a.name === 'value');
    if (value) return { ...resolved, sub: value, canonical: `${resolved.attribute.name}.value` };
  }
  return resolved;
}

function resolve(kind: ResourceKind, filter: FilterSyntax, inside?: AttributePath): Resolved {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { op: filter.op, filters: filter.filters.map((f) => resolve(kind, f, inside)) };
    case 'not':
      return { op: 'not', filter: resolve(kind, filter.filter, inside) };
    case '[]': {
      if (inside) throw invalidFilter('A value path cannot be nested in another.');
      const path = resolvePath(kind, filter.attrPath);
      if (!path || path.sub || path.attribute.type !== 'complex') {
        throw invalidFilter(`"${filter.attrPath}" is not a multi-valued attribute that a value path can filter.`);
      }
      return { op: '[]', path, filter: resolve(kind, filter.valFilter, path) };
    }
    case 'pr':
      return { op: 'pr', path: resolveAttribute(kind, filter.attrPath, inside) };
    default:
      return { op: filter.op, path: resolveAttribute(kind, filter.attrPath, inside), value: filter.compValue };
  }
}

/**
 * Entra writes `emails[type eq "work"].value eq "x"`; the parser reads it as
 * `emails[type eq "work"] and emails.value eq "x"`, which is true for a user
 * whose work address is another and whose home address is x. Rewritten to
 * `emails[type eq "work" and value eq "x"]`.
 */
function entraValuePath(filter: FilterSyntax): FilterSyntax {
  if (filter.op === 'and' || filter.op === 'or') {
    const [first, second, ...rest] = filter.filters;
    if (
      filter.op === 'and' &&
      rest.length === 0 &&
      first?.op === '[]' &&
      second &&
      'attrPath' in second &&
      second.op !== '[]' &&
      second.attrPath.toLowerCase().startsWith(`${first.attrPath.toLowerCase()}.`)
    ) {
      const sub = { ...second, attrPath: second.attrPath.slice(first.attrPath.length + 1) } as FilterSyntax;
      return { op: '[]', attrPath: first.attrPath, valFilter: { op: 'and', filters: [first.valFilter, sub] } };
    }
    return { ...filter, filters: filter.filters.map(entraValuePath) };
  }
  if (filter.op === 'not') return { ...filter, filter: entraValuePath(filter.filter) };
  return filter;
}

/** Resolves a filter's syntax tree against a kind's schemas (400 invalidFilter for a name it does not keep). */
export function resolveFilter(kind: ResourceKind, syntax: FilterSyntax): Resolved {
  return resolve(kind, entraValuePath(syntax));
}

/** The longest filter read (docs/identity-providers.md): an identity provider's are a few dozen characters. */
export const MAX_FILTER_LENGTH = 2000;

/** Parses and resolves a filter; any error (too long, a control character, bad syntax) is 400 invalidFilter. */
export function parseFilter(kind: ResourceKind, text: string): Resolved {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`A filter has at most ${MAX_FILTER_LENGTH} characters.`);
  if (!NO_CONTROL_CHARACTERS.test(text)) throw invalidFilter('A filter must not contain control characters (a newline, a tab, …).');
  let syntax: FilterSyntax;
  try {
    syntax = parseSyntax(text);
  } catch (error) {
    throw invalidFilter(`The filter cannot be parsed: ${(error as Error).message}`);
  }
  return resolveFilter(kind, syntax);
}

// --- evaluation ----------------------------------------------------------------------

/** Values a path takes in a resource (or in one element of a multi-valued attribute). */
function valuesAt(resource: Resource, path: AttributePath, element?: Resource): unknown[] {
  if (element) return path.sub ? [element[path.sub.name]] : [];
  const holder = path.schema.includes(':extension:') ? (resource[path.schema] as Resource | undefined) : resource;
  const top = holder?.[path.attribute.name];
  if (!path.sub) return top === undefined ? [] : [top];
  const list = Array.isArray(top) ? top : top === undefined || top === null ? [] : [top];
  return list.map((item) => (item as Resource)[path.sub!.name]);
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

function compare(op: CompareOp, actual: unknown, expected: CompareValue, caseExact: boolean, type: string): boolean {
  if (actual === undefined || actual === null) return op === 'ne' && expected !== null;
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    const wanted = typeof expected === 'string' ? expected.toLowerCase() === 'true' : expected;
    if (op === 'eq') return actual === wanted;
    if (op === 'ne') return actual !== wanted;
    return false;
  }
  let a = String(actual);
  let b = String(expected);
  if (type === 'dateTime') {
    a = new Date(a).toISOString();
    b = Number.isNaN(Date.parse(b)) ? b : new Date(b).toISOString();
  } else if (!caseExact) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
  }
}

/** Whether `resource` matches the filter. */
export function matches(filter: Resolved, resource: Resource, element?: Resource): boolean {
  switch (filter.op) {
    case 'and':
      return filter.filters.every((f) => matches(f, resource, element));
    case 'or':
      return filter.filters.some((f) => matches(f, resource, element));
    case 'not':
      return !matches(filter.filter, resource, element);
    case '[]': {
      const list = valuesAt(resource, { ...filter.path, sub: undefined })[0];
      return Array.isArray(list) && list.some((item) => matches(filter.filter, resource, item as Resource));
    }
    case 'pr':
      return valuesAt(resource, filter.path, element).some(present);
    default: {
      const leaf = leafOf(filter.path);
      const values = valuesAt(resource, filter.path, element);
      if (filter.op === 'ne') return values.every((v) => compare('ne', v, filter.value, leaf.caseExact, leaf.type));
      return values.some((v) => compare(filter.op as CompareOp, v, filter.value, leaf.caseExact, leaf.type));
    }
  }
}
