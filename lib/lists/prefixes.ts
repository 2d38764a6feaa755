/**
 * Case-insensitive name prefixes (`name:` of departments and groups,
 * `last_name:` of users): their key ranges, and which of them can match at
 * all. A prefix is case-folded (foldCase) before it gets here.
 */
import { MAX_SORT_KEY_BYTES } from '../db/query';
import { MAX_KEY_CHAR } from './streams';

/**
 * The longest prefix asked of DynamoDB, in UTF-8 bytes: its key range ends at
 * the prefix and MAX_KEY_CHAR, which must fit a sort key, or DynamoDB refuses
 * the Query with an error. A longer prefix matches nothing: every stored name
 * starts a sort key `<folded name><SEP><id>` (nameSortKey), so only a name of
 * over 1,020 bytes with an id of one or two characters could match it, and
 * the API takes names of at most 200 characters. The bound is the key's, not
 * those 200 characters, because SCIM stores longer names.
 */
export const MAX_PREFIX_BYTES = MAX_SORT_KEY_BYTES - Buffer.byteLength(MAX_KEY_CHAR, 'utf8');

/** The prefixes that some stored name can start with. */
export const matchablePrefixes = (prefixes: string[]): string[] =>
  prefixes.filter((prefix) => Buffer.byteLength(prefix, 'utf8') <= MAX_PREFIX_BYTES);

/** Keeps only prefixes that no other given prefix contains (`sm` and `smi` would list the Smiths twice). */
export const outermostPrefixes = (prefixes: string[]): string[] =>
  prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(q)));

/** Inclusive key range of the names (and `<name><SEP><id>` keys) that start with a prefix. */
export const prefixBounds = (prefix: string) => ({ from: prefix, to: `${prefix}${MAX_KEY_CHAR}` });
