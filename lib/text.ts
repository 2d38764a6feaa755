/**
 * Text ordering shared by index sort keys and in-memory sorts, so that every
 * list orders text the same way DynamoDB does (by UTF-8 bytes, i.e. by code
 * point), case-insensitively.
 */

/** Sorts before every character a name may hold (names reject control characters). */
export const KEY_SEPARATOR = '\u0001';

export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** Index sort key for "order by name, ties by id". */
export function nameSortKey(name: string, id: string): string {
  return `${foldCase(name)}${KEY_SEPARATOR}${id}`;
}

/** Compares strings by code point, as DynamoDB compares UTF-8 strings. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Case-insensitive comparison used for text sort fields. */
export function compareText(a: string, b: string): number {
  return compareCodePoints(foldCase(a), foldCase(b));
}

/**
 * Control characters are refused in names: they would break sort keys and CSV output. So are unpaired
 * surrogates, which are no text (DynamoDB keeps UTF-8) and take 6 bytes each in a JSON answer. The same in
 * JavaScript's and in JSON Schema's (code point) matching: a pair is the second alternative, or one code point.
 */
export const NO_CONTROL_CHARACTERS = /^(?:[^\u0000-\u001f\u007f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;
