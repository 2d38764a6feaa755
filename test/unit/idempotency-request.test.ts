/** What makes two requests with one Idempotency-Key the same request (lib/http/idempotency.ts). */
import { describe, expect, it } from 'vitest';
import { recordHash, requestHash } from '../../lib/http/idempotency';

const request = (path: string, rawQueryString = '', body: string | null = null, method = 'POST') => ({
  method,
  path,
  rawQueryString,
  body,
});

describe('requestHash', () => {
  it('sorts the query: the order of its parameters does not matter', () => {
    expect(requestHash(request('/v2/groups', 'a=1&b=2'))).toBe(requestHash(request('/v2/groups', 'b=2&a=1')));
    expect(requestHash(request('/v2/groups', 'email=a%40x.com'))).toBe(requestHash(request('/v2/groups', 'email=a@x.com')));
  });

  it('keeps what the query says: values, their presence, and the order of one repeated parameter', () => {
    const base = requestHash(request('/v2/groups'));
    expect(requestHash(request('/v2/groups', 'dry_run=true'))).not.toBe(base);
    expect(requestHash(request('/v2/groups', 'dry_run=false'))).not.toBe(base);
    expect(requestHash(request('/v2/x', 'email=alice@x.com'))).not.toBe(requestHash(request('/v2/x', 'email=bob@x.com')));
    expect(requestHash(request('/v2/x', 'e=1&e=2'))).not.toBe(requestHash(request('/v2/x', 'e=2&e=1')));
  });

  it('reads a path with the `.json` suffix as the path without it', () => {
    expect(requestHash(request('/v2/departments.json'))).toBe(requestHash(request('/v2/departments')));
    expect(requestHash(request('/v2/departments/d1.json/users/u1.json'))).toBe(requestHash(request('/v2/departments/d1/users/u1')));
  });

  it('tells method, path and body apart', () => {
    expect(requestHash(request('/v2/a', '', '{}'))).not.toBe(requestHash(request('/v2/a', '', '{ }')));
    expect(requestHash(request('/v2/a'))).not.toBe(requestHash(request('/v2/b')));
    expect(requestHash(request('/v2/a', '', null, 'DELETE'))).not.toBe(requestHash(request('/v2/a')));
  });
});

describe('recordHash', () => {
  it("is the caller's own: the same key of two callers is two records", () => {
    expect(recordHash('alice', 'k1')).not.toBe(recordHash('bob', 'k1'));
    expect(recordHash('alice', 'k1')).toBe(recordHash('alice', 'k1'));
    // No caller and key run together into another's.
    expect(recordHash('a', 'bk')).not.toBe(recordHash('ab', 'k'));
  });
});
