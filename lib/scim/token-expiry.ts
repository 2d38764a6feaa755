/**
 * When a SCIM token stops working: at its `expires_at` (none: when it is
 * deleted). The authorizer checks it (lib/scim/tokens.ts), and so does every
 * SCIM route with the expiry the authorizer handed on (lib/http/scim-wire.ts),
 * because on AWS the authorizer's answer is cached for minutes: the expiry
 * holds to the millisecond, not to the cache's time. A module of its own
 * so that the discovery routes, which bundle nothing else, can check it.
 */
export const scimTokenExpired = (expiresAt: string | null | undefined, now = Date.now()): boolean =>
  Boolean(expiresAt) && !(Date.parse(expiresAt!) > now);
