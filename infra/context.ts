/**
 * Stack settings from CDK context (`cdk.json` or `cdk synth -c key=value`).
 * Every key is optional: with none, the stack issues its own tokens (Cognito),
 * sets no seat limit, e-mails reports to no one (`reportEmailDomains=*` allows any
 * domain) and keeps CORS closed. With an external issuer (`jwtIssuer`,
 * `jwtAudience`), the `console*` keys name the console's public client there;
 * without them the console takes a pasted token.
 */
import type { Node } from 'constructs';
import type { DeptAdminStackProps } from './stack';

/** Context keys the app reads. Lists may be arrays or comma-separated strings. */
export const CONTEXT_KEYS = {
  jwtIssuer: 'jwtIssuer',
  jwtAudience: 'jwtAudience',
  departmentSeats: 'departmentSeats',
  reportEmailDomains: 'reportEmailDomains',
  reportEmailFrom: 'reportEmailFrom',
  corsAllowOrigins: 'corsAllowOrigins',
  consoleClientId: 'consoleClientId',
  consoleAuthorizeUrl: 'consoleAuthorizeUrl',
  consoleTokenUrl: 'consoleTokenUrl',
  consoleScopes: 'consoleScopes',
  consoleLogoutUrl: 'consoleLogoutUrl',
} as const;

export function stackPropsFromContext(node: Node): DeptAdminStackProps {
  return {
    jwtIssuer: text(node, CONTEXT_KEYS.jwtIssuer),
    jwtAudience: list(node, CONTEXT_KEYS.jwtAudience),
    departmentSeats: nonNegativeInteger(node, CONTEXT_KEYS.departmentSeats),
    reportEmailDomains: list(node, CONTEXT_KEYS.reportEmailDomains),
    reportEmailFrom: text(node, CONTEXT_KEYS.reportEmailFrom),
    corsAllowOrigins: list(node, CONTEXT_KEYS.corsAllowOrigins),
    consoleClientId: text(node, CONTEXT_KEYS.consoleClientId),
    consoleAuthorizeUrl: text(node, CONTEXT_KEYS.consoleAuthorizeUrl),
    consoleTokenUrl: text(node, CONTEXT_KEYS.consoleTokenUrl),
    consoleScopes: scopes(node, CONTEXT_KEYS.consoleScopes),
    consoleLogoutUrl: text(node, CONTEXT_KEYS.consoleLogoutUrl),
  };
}

/** OAuth scopes: an array, or one string separated by spaces (as OAuth writes them) or commas. */
function scopes(node: Node, key: string): string[] | undefined {
  const value: unknown = node.tryGetContext(key);
  if (typeof value === 'string') {
    const items = value.split(/[\s,]+/).filter((item) => item.length > 0);
    return items.length > 0 ? items : undefined;
  }
  return list(node, key);
}

function text(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`Context ${key} must be a string`);
  return value.trim() || undefined;
}

function list(node: Node, key: string): string[] | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  const parts = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(parts) || parts.some((part) => typeof part !== 'string')) {
    throw new Error(`Context ${key} must be a comma-separated string or an array of strings`);
  }
  const items = (parts as string[]).map((part) => part.trim()).filter((part) => part.length > 0);
  return items.length > 0 ? items : undefined;
}

function nonNegativeInteger(node: Node, key: string): number | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
    throw new Error(`Context ${key} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return number;
}
