/**
 * Case-insensitive name prefixes (`name:` of departments and groups,
 * `last_name:` of users): their key ranges, and which of them can match at
 * all. A prefix is case-folded (foldCase) before it gets here.
 */
import { DISPLAY_NAME_MAX_LENGTH } from '../schemas/common';
import { MAX_KEY_CHAR } from './streams';

/**
 * The most UTF-8 bytes a folded name can take: a name holds at most
 * DISPLAY_NAME_MAX_LENGTH UTF-16 code units, and each folds to at most three
 * bytes ("İ", one code unit, lowercases to "i" and a combining dot; a
 * surrogate pair, two code units, to a four-byte character).
 */
export const MAX_FOLDED_NAME_BYTES = 3 * DISPLAY_NAME_MAX_LENGTH;

/**
 * The prefixes that some name can start with. A longer one matches nothing,
 * and must not reach DynamoDB either: it refuses a key condition over its
 * key size (1024 bytes for a sort key) with an error, not an empty answer.
 */
export const matchablePrefixes = (prefixes: string[]): string[] =>
  prefixes.filter((prefix) => Buffer.byteLength(prefix, 'utf8') <= MAX_FOLDED_NAME_BYTES);

/** Keeps only prefixes that no other given prefix contains (`sm` and `smi` would list the Smiths twice). */
export const outermostPrefixes = (prefixes: string[]): string[] =>
  prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(q)));

/** Inclusive key range of the names (and `<name><SEP><id>` keys) that start with a prefix. */
export const prefixBounds = (prefix: string) => ({ from: prefix, to: `${prefix}${MAX_KEY_CHAR}` });
