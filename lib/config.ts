/**
 * The one place the service reads its configuration from the environment.
 * Handlers, the local gateway and the CDK stack all go through here, so a
 * setting has one name and one parser.
 */

/** Name the service logs under (Powertools `service`) and names its resources after. */
export const SERVICE_NAME = 'dept-admin';

/** The change bus's events (one per change, plain JSON: lib/aws/events.ts): their source and detail type. */
export const CHANGE_EVENT_SOURCE = SERVICE_NAME;
export const CHANGE_EVENT_DETAIL_TYPE = 'Change recorded';

/** CloudWatch namespace of the service's own metrics: the business metrics (lib/metrics.ts) and the alarms' log-derived ones. */
export const METRICS_NAMESPACE = 'DeptAdmin';

export interface ServiceConfig {
  /** Limit of the read-only `seats` quota of every department; null = no limit. */
  departmentSeats: number | null;
  /**
   * Where report e-mail may go: `'*'` any domain, else only these domains. Unset or empty means no one:
   * a deployment opens report e-mail only by saying where it may go.
   */
  reportEmailDomains: '*' | string[];
  /** Sender identity of report e-mails. */
  reportEmailFrom: string;
  /** The API's address as callers reach it, without a trailing slash: the report e-mail's link points there. */
  apiBaseUrl: string | undefined;
  /** Whether SCIM may create a department it is given by an unknown name (SCIM_CREATE_DEPARTMENTS=false: 400). */
  scimCreateDepartments: boolean;
  /**
   * Rule groups (lib/groups/rule.ts): the most members a rule keeps (the contract's 10,000; RULE_GROUP_MAX_USERS lowers
   * it, for tests that reach `over_limit` with a handful of users) and the most rule groups (500; RULE_GROUPS_MAX).
   */
  ruleGroups: { maxUsers: number; maxGroups: number };
  /**
   * WEBHOOKS_ALLOW_LOCAL=true (the local stack only, never on AWS): webhooks may use `http` and loopback addresses
   * (a receiver on the same laptop). Private, link-local and metadata addresses stay refused.
   */
  webhooksAllowLocal: boolean;
  /** Endpoint overrides, set only on the local stack. */
  endpoints: { dynamodb?: string; s3?: string; ses?: string; sqs?: string };
  region: string;
}

/** The console's OAuth login (the stack's Cognito hosted login, or an external issuer's): what the page needs to start one. */
export interface ConsoleSignIn {
  /** The authorization endpoint the browser is sent to. */
  authorizeUrl: string;
  /** The token endpoint the page trades the code for a token at (the page's CSP allows this origin too). */
  tokenUrl: string;
  /** The console's public OAuth client (no secret: PKCE). */
  clientId: string;
  /** The scopes the page asks for, space-separated as OAuth writes them. */
  scopes: string;
  /** Where signing out also ends the issuer's session, when it has such an endpoint. */
  logoutUrl?: string;
  /** The `iss` of the issuer's tokens (an ID token returned with an `openid` scope is checked against it). */
  issuer?: string;
}

/**
 * CONSOLE_AUTHORIZE_URL, CONSOLE_TOKEN_URL and CONSOLE_CLIENT_ID together (or none); CONSOLE_SCOPES, CONSOLE_LOGOUT_URL,
 * CONSOLE_ISSUER optional. The stack writes them from its own resources or checked context (infra/context.ts); the
 * console page's function reads them alone, and carries no more than this of the configuration (its cold start).
 */
export function consoleSignIn(env: NodeJS.ProcessEnv = process.env): ConsoleSignIn | undefined {
  const { CONSOLE_AUTHORIZE_URL: authorizeUrl, CONSOLE_TOKEN_URL: tokenUrl, CONSOLE_CLIENT_ID: clientId } = env;
  if (!authorizeUrl && !tokenUrl && !clientId) return undefined;
  if (!authorizeUrl || !tokenUrl || !clientId)
    throw new Error('CONSOLE_AUTHORIZE_URL, CONSOLE_TOKEN_URL and CONSOLE_CLIENT_ID go together');
  const [logoutUrl, issuer] = [env.CONSOLE_LOGOUT_URL || undefined, env.CONSOLE_ISSUER || undefined];
  return {
    authorizeUrl,
    tokenUrl,
    clientId,
    scopes: env.CONSOLE_SCOPES || 'openid',
    ...(logoutUrl && { logoutUrl }),
    ...(issuer && { issuer }),
  };
}

/** The variables that give a function these sign-in settings: what the stack sets, read back by `consoleSignIn`. */
export function consoleSignInEnvironment(signIn: ConsoleSignIn): Record<string, string> {
  return {
    CONSOLE_AUTHORIZE_URL: signIn.authorizeUrl,
    CONSOLE_TOKEN_URL: signIn.tokenUrl,
    CONSOLE_CLIENT_ID: signIn.clientId,
    CONSOLE_SCOPES: signIn.scopes,
    ...(signIn.logoutUrl ? { CONSOLE_LOGOUT_URL: signIn.logoutUrl } : {}),
    ...(signIn.issuer ? { CONSOLE_ISSUER: signIn.issuer } : {}),
  };
}

function optionalNonNegativeInteger(name: string, raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.length > 0);
}

const DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** REPORT_EMAIL_DOMAINS: `*`, or comma-separated domains (matched exactly: a subdomain is another domain). */
function emailDomains(raw: string | undefined): '*' | string[] {
  const domains = commaList(raw);
  if (domains.includes('*')) {
    if (domains.length > 1) throw new Error(`REPORT_EMAIL_DOMAINS is either * or a list of domains, got "${raw}"`);
    return '*';
  }
  const bad = domains.find((domain) => !DOMAIN.test(domain));
  if (bad !== undefined) throw new Error(`REPORT_EMAIL_DOMAINS must list domains such as example.com, got "${bad}"`);
  return domains;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    departmentSeats: optionalNonNegativeInteger('DEPARTMENT_SEATS', env.DEPARTMENT_SEATS),
    reportEmailDomains: emailDomains(env.REPORT_EMAIL_DOMAINS),
    reportEmailFrom: env.REPORT_EMAIL_FROM ?? 'reports@example.com',
    apiBaseUrl: env.API_BASE_URL?.trim().replace(/\/+$/, '') || undefined,
    scimCreateDepartments: (env.SCIM_CREATE_DEPARTMENTS ?? '').trim().toLowerCase() !== 'false',
    ruleGroups: {
      maxUsers: Math.min(optionalNonNegativeInteger('RULE_GROUP_MAX_USERS', env.RULE_GROUP_MAX_USERS) ?? 10_000, 10_000),
      maxGroups: optionalNonNegativeInteger('RULE_GROUPS_MAX', env.RULE_GROUPS_MAX) ?? 500,
    },
    webhooksAllowLocal: (env.WEBHOOKS_ALLOW_LOCAL ?? '').trim().toLowerCase() === 'true',
    endpoints: {
      dynamodb: env.DYNAMODB_ENDPOINT || undefined,
      s3: env.S3_ENDPOINT || undefined,
      ses: env.SES_ENDPOINT || undefined,
      sqs: env.SQS_ENDPOINT || undefined,
    },
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
  };
}

/**
 * The resources the stack gives every function, by variable: the single
 * DynamoDB table (single-table design), the bucket of generated reports, and
 * the queue of webhook deliveries (its functions only: the delivery function,
 * and the webhook routes that send it a replay or a retry); the StreamRouter's
 * bus and the functions it invokes.
 * No default: a function deployed without one must fail on its first use, not
 * quietly use a table or bucket of that name in its account.
 */
export type ResourceSetting =
  | 'TABLE_NAME'
  | 'REPORTS_BUCKET'
  | 'WEBHOOK_QUEUE_URL'
  /** The change bus, for the StreamRouter (lib/background.ts) alone. */
  | 'CHANGE_BUS_NAME'
  /** The functions the StreamRouter hands stream records to (their `trigger.functionVariable`). */
  | 'REPORT_WORKER_FUNCTION'
  | 'RULE_WORKER_FUNCTION';

export function resourceName(name: ResourceSetting, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`${name} is not set: the stack gives it to every function (infra/stack.ts), and it has no default`);
  return value;
}

/**
 * The configuration, read from the environment at each call (a few µs): no
 * copy to keep in step, so tests and the local stack that point the service
 * at another table or setting only change the environment. The AWS clients
 * (lib/db/client.ts, lib/aws/) keep the endpoint and region of their first use.
 */
export function config(): ServiceConfig {
  return loadConfig();
}
