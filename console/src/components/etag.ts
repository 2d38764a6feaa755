/**
 * A resource read with its version: GET of a user or department answers an `ETag`, which their PATCH and DELETE send
 * back as `If-Match` (a stale one → 412, and nothing changes).
 */
import type { Answer } from './use-request';

export interface Versioned<T> {
  value: T;
  etag: string | undefined;
}

export async function withETag<T>(request: Promise<Answer<T>>): Promise<Answer<Versioned<T>>> {
  const { data, error, response } = await request;
  return { error, response, data: data === undefined ? undefined : { value: data, etag: response.headers.get('ETag') ?? undefined } };
}

/** The `If-Match` header for a version read earlier (none if the answer carried no tag). */
export const ifMatch = (etag: string | undefined) => (etag ? { 'If-Match': etag } : {});
