/**
 * The `query` syntax of the contract's lists (`attr:value,attr:value`), parsed
 * once for every list and for group rules (lib/groups/rule.ts), which are
 * written in the same syntax.
 */
import { validationError } from '../problems';

/**
 * `attr:value,attr:value`: the same attribute twice means either value (OR),
 * different attributes must all hold (AND). Returns the values per attribute;
 * `field` names the parameter or body field in a 400.
 */
export function parseFilter<A extends string>(raw: string | undefined, attributes: readonly A[], field = 'query'): Map<A, string[]> {
  const filters = new Map<A, string[]>();
  if (raw === undefined || raw === '') return filters;
  for (const part of raw.split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) throw validationError([{ field, message: `sub-filter "${part}" must be attribute:value` }]);
    const attribute = part.slice(0, colon) as A;
    const value = part.slice(colon + 1);
    if (!attributes.includes(attribute)) {
      throw validationError([{ field, message: `unknown filter attribute "${attribute}"; use one of ${attributes.join(', ')}` }]);
    }
    filters.set(attribute, [...(filters.get(attribute) ?? []), value]);
  }
  return filters;
}
