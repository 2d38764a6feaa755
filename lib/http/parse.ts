import { safeParse } from 'zod/mini';
import type { $ZodIssue, $ZodRawIssue, $ZodType } from 'zod/v4/core';
import { Problem, validationError, type FieldError } from '../problems';
import type { HttpEvent } from './response';

/** Largest accepted request body (over 1 MiB → 413). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest accepted JSON nesting; real bodies here are 2–3 levels deep. */
export const MAX_JSON_DEPTH = 32;

type Location = 'path' | 'query' | 'body';

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/**
 * The message of a wrong type where the schema gives none (zod's own is a
 * bare "Invalid input"): what the value must be.
 */
function typeMessage(issue: $ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  return `must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}`;
}

function toFieldErrors(location: Location, issues: readonly $ZodIssue[]): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    // Unknown keys are reported by zod on the parent; name each key instead.
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.join(', ');
      return { field: path || location, message: `Unknown field(s): ${keys}` };
    }
    // Nothing where a value is required: say so, whatever the field's own message about a wrong value.
    if (issue.code === 'invalid_type' && issue.input === undefined) return { field: path || location, message: 'is required' };
    return { field: path || location, message: issue.message };
  });
}

/** Validates `input` with `schema`, throwing a 400 `validation` problem that names each bad field. */
export function validate<T>(schema: $ZodType<T>, input: unknown, location: Location): T {
  // reportInput: the issues carry the value, so a missing one can be told from a wrong one.
  const result = safeParse(schema, input, { reportInput: true, error: typeMessage });
  if (!result.success) throw validationError(toFieldErrors(location, result.error.issues));
  return result.data;
}

function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The request's headers by lower-cased name (HTTP header names are case-insensitive). */
export function lowerCaseHeaders(event: Pick<HttpEvent, 'headers'>): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/** The entries of an API Gateway parameter map that have a value. */
export const definedValues = (values: Record<string, string | undefined> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).filter((e): e is [string, string] => e[1] !== undefined));

/**
 * Decodes and parses a JSON request body, enforcing media type, size and depth
 * before the body reaches a schema. Returns `undefined` for an empty body.
 */
export function parseJsonBody(raw: string | undefined, isBase64Encoded: boolean, contentType: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  const bytes = isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > MAX_BODY_BYTES) {
    throw new Problem('payload-too-large', `The request body is ${bytes.length} bytes; the limit is ${MAX_BODY_BYTES}.`);
  }
  if (!isJsonContentType(contentType)) {
    throw new Problem('unsupported-media-type', 'Send the request body as application/json.');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw validationError([{ field: 'body', message: 'The body is not valid UTF-8.' }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError([{ field: 'body', message: 'The body is not valid JSON.' }]);
  }
  if (jsonDepthExceeds(parsed, MAX_JSON_DEPTH)) {
    throw validationError([{ field: 'body', message: `The body is nested deeper than ${MAX_JSON_DEPTH} levels.` }]);
  }
  return parsed;
}
