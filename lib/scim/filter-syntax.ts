/**
 * The one step that reads a SCIM filter's text (RFC 7644 §3.4.2.2) into a
 * syntax tree: everything after it (filter.ts resolves names and evaluates,
 * filter-reads.ts chooses the reads) works on `FilterSyntax` alone.
 *
 * Today the text is read by `scim2-parse-filter`, whose tree has this shape;
 * another parser (a linear-time one, say) replaces this file and nothing else,
 * as long as it answers the same tree: `and`/`or` with their operands in
 * order (`a and b and c` one node of three), attribute paths as written.
 */
import { parse } from 'scim2-parse-filter';

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';
/** A compared value as the filter writes it: `"x"`, `true`, `3`, `null`. */
export type CompareValue = boolean | null | number | string;

export type FilterSyntax =
  | { op: 'and' | 'or'; filters: FilterSyntax[] }
  | { op: 'not'; filter: FilterSyntax }
  /** `emails[type eq "work"]`: the inner filter holds for one element. */
  | { op: '[]'; attrPath: string; valFilter: FilterSyntax }
  | { op: 'pr'; attrPath: string }
  | { op: CompareOp; attrPath: string; compValue: CompareValue };

/** The syntax tree of a filter; throws an Error whose message says what is wrong with the text. */
export function parseSyntax(text: string): FilterSyntax {
  return parse(text) as FilterSyntax;
}
