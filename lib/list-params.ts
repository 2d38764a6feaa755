/**
 * The list conventions of API.md shared by every list: `sort` and `query`
 * parsing, with a 400 naming the parameter for anything unknown.
 */
import { validationError } from './errors';

export type Direction = 'asc' | 'desc';
export interface SortOrder<F extends string> {
  field: F;
  direction: Direction;
}

/** `asc|desc`, `<field>` or `<field>:asc|desc`. */
export function parseSort<F extends string>(raw: string | undefined, fields: readonly F[], defaultField: F): SortOrder<F> {
  if (raw === undefined || raw === '') return { field: defaultField, direction: 'asc' };
  if (raw === 'asc' || raw === 'desc') return { field: defaultField, direction: raw };
  const [field, direction = 'asc', ...rest] = raw.split(':');
  if (!fields.includes(field as F)) {
    throw validationError([{ field: 'sort', message: `unknown sort field "${field}"; use one of ${fields.join(', ')}` }]);
  }
  if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
    throw validationError([{ field: 'sort', message: `unknown sort direction "${direction}"; use asc or desc` }]);
  }
  return { field: field as F, direction };
}

/**
 * `attr:value,attr:value`: the same attribute twice means either value (OR),
 * different attributes must all hold (AND). Returns the values per attribute.
 */
export function parseFilter<A extends string>(raw: string | undefined, attributes: readonly A[]): Map<A, string[]> {
  const filters = new Map<A, string[]>();
  if (raw === undefined || raw === '') return filters;
  for (const part of raw.split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) throw validationError([{ field: 'query', message: `sub-filter "${part}" must be attribute:value` }]);
    const attribute = part.slice(0, colon) as A;
    const value = part.slice(colon + 1);
    if (!attributes.includes(attribute)) {
      throw validationError([{ field: 'query', message: `unknown filter attribute "${attribute}"; use one of ${attributes.join(', ')}` }]);
    }
    filters.set(attribute, [...(filters.get(attribute) ?? []), value]);
  }
  return filters;
}
