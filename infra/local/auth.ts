/**
 * The local stand-in for the JWT authorizer: two static bearer tokens, one
 * that may read and write (subject `local-admin`) and one that may only read
 * (`local-reader`), and the authorizer context a handler receives on AWS.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayEventRequestContextJWTAuthorizer } from 'aws-lambda';

export type Principal = { sub: string; scopes: string[] };

const WRITER: Principal = { sub: 'local-admin', scopes: ['admin/read', 'admin/write'] };
const READER: Principal = { sub: 'local-reader', scopes: ['admin/read'] };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Compares digests, not the tokens: equal lengths for timingSafeEqual, and the
 * time taken says nothing about how much of a token was right.
 */
export function createAuthenticator(tokens: { write: string; read?: string }) {
  if (!tokens.write) throw new Error('startGateway: tokens.write must be a non-empty string');
  const known: Array<[Buffer, Principal]> = [[sha256(tokens.write), WRITER]];
  if (tokens.read) known.push([sha256(tokens.read), READER]);
  return (authorization: string | undefined): Principal | undefined => {
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
    if (!bearer) return undefined;
    const presented = sha256(bearer[1]);
    let principal: Principal | undefined;
    for (const [digest, candidate] of known) {
      if (timingSafeEqual(digest, presented) && !principal) principal = candidate;
    }
    return principal;
  };
}

export function jwtAuthorizer(principal: Principal): APIGatewayEventRequestContextJWTAuthorizer {
  return {
    jwt: { claims: { sub: principal.sub, scope: principal.scopes.join(' ') }, scopes: [...principal.scopes] },
  };
}
