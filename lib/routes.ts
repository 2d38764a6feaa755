/**
 * The route table: the only list of the service's operations.
 *
 * The CDK stack makes one Lambda function and one HTTP API route per entry,
 * the local gateway serves the same entries, and the OpenAPI document is
 * generated from them. An operation has one name, the key of its entry: its
 * handler is `functions/<name>.ts`, its OpenAPI operationId is the name, and
 * its handler is built with `operation('<name>', …)`.
 *
 * This module must stay free of runtime dependencies: CDK, the gateway and the
 * docs import it, and so does every operation() handler (for its audit label).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A method a route is served under: its own, and HEAD wherever it is GET. */
export type ServedMethod = HttpMethod | 'HEAD';

/**
 * `public`: no token; `read`: scope admin/read; `write`: scope admin/write
 * (both JWTs, checked by the JWT authorizer); `scim`: a SCIM token, checked by
 * the SCIM authorizer (lib/scim/tokens.ts), which opens no other route.
 */
export type Access = 'public' | 'read' | 'write' | 'scim';

/** OAuth scopes of the resource server `admin`, as they appear in access tokens. */
export const RESOURCE_SERVER_ID = 'admin';
export const SCOPE_NAMES = { read: 'read', write: 'write' } as const;

/** The JWT scope a route demands; `undefined` for a route open without a token or behind the SCIM authorizer. */
export function requiredScope(access: Access): string | undefined {
  return access === 'public' || access === 'scim' ? undefined : `${RESOURCE_SERVER_ID}/${SCOPE_NAMES[access]}`;
}

/** Where SCIM's resources live: `{base_url}/scim/v2`. */
export const SCIM_BASE_PATH = '/scim/v2';

/** Whether a request path is under SCIM's base path, where every answer follows SCIM's conventions. */
export const isScimPath = (path: string) => path === SCIM_BASE_PATH || path.startsWith(`${SCIM_BASE_PATH}/`);

/** A contract id: E1–E9 (departments), G1–G8 (groups). */
export type ContractLabel = `E${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}` | `G${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;

export type Tag = 'Service' | 'Users' | 'Departments' | 'Groups' | 'Audit' | 'Webhooks' | 'Reports' | 'SCIM tokens' | 'SCIM';

/** What only some routes need. */
export interface RouteOptions {
  /** The operation's id in the product contract, where it has one: in its OpenAPI summary and `x-contract-id`, and in its audit entries. */
  label?: ContractLabel;
  /** Further paths served by the same operation (getDepartmentQuotas also answers without `/v2`). */
  aliases?: readonly string[];
  /** `presign`: signs download links of the reports bucket (needs s3:GetObject there). */
  reportsBucket?: 'presign';
  /** `send`: puts messages on the webhook delivery queue (a resumed webhook's replay): its URL and sqs:SendMessage there. */
  webhookQueue?: 'send';
  /** Function timeout when the default (10 s) is too short; API Gateway waits at most 29 s. */
  timeoutSeconds?: number;
  /** Its answer holds a secret shown once: an Idempotency-Key never keeps it (lib/http/idempotency.ts). */
  secretInAnswer?: true;
  /** A route throttle below the stage's (requests per second, and burst), for an operation whose one call costs much. */
  throttle?: RouteThrottle;
  /**
   * The page people sign in on: its function gets the deployment's sign-in settings (lib/config.ts `consoleSignIn`),
   * and its URL is where the login returns to. No other function gets them.
   */
  consoleSignIn?: true;
}

/** API Gateway's throttle of one route: steady requests per second and the burst above it, for all callers together. */
export interface RouteThrottle {
  rate: number;
  burst: number;
}

/** Writes of up to 10,000 memberships (~61,000 WCU) or a report job of the whole organization. */
const COSTLY_WRITE: RouteThrottle = { rate: 2, burst: 5 };
/**
 * SCIM lists, whose filters may read a whole list (the OpenAPI document says which). Half the stage's: identity
 * providers also look up every user they sync by `userName eq` here, and one refused too often quarantines the app.
 */
const COSTLY_LIST: RouteThrottle = { rate: 25, burst: 50 };

export interface Route<Name extends string = string> extends RouteOptions {
  /** The operation's one name: its handler `functions/<name>.ts`, its OpenAPI operationId, what the code calls it. */
  name: Name;
  method: HttpMethod;
  /** Path with `{param}` segments, as API Gateway writes it. */
  path: string;
  access: Access;
  /** After the label, if any: the OpenAPI summary is `E2: add a user to …`. */
  summary: string;
  tag: Tag;
}

/** A row of the table: its route key (`METHOD /path`), who may call it, its summary, and what only some routes need. */
type Row = readonly [routeKey: `${HttpMethod} /${string}`, access: Access, summary: string, options?: RouteOptions];

/**
 * Every route, by tag in the order of the OpenAPI document. Writes of whole
 * groups (createGroup and SCIM's) get 28 s: 10,000 memberships are ~61,000
 * WCU, seconds rather than milliseconds on a cold table. So do the reads that
 * read a whole group (G1 and its users in last-name order, SCIM's group and
 * group list): 10,000 users are ~10,400 RCU and 15 MB at their longest, 5 s
 * on an idle DynamoDB Local and past 10 s on a busy one
 * (test/http/group-members-scale.test.ts), until a page costs a page.
 */
// prettier-ignore
const ROUTE_TABLE = {
  Service: {
    health:       ['GET /v2/health',                'public', 'Health check'],
    openapi:      ['GET /v2/openapi.json',          'public', 'The OpenAPI 3.1 document of this API'],
    docs:         ['GET /docs',                     'public', 'The documentation page (HTML) that renders the OpenAPI document'],
    docsRenderer: ['GET /docs/redoc.standalone.js', 'public', 'The script of the documentation page (Redoc)'],
    console:       ['GET /console',                 'public', 'The admin console (HTML page); it signs a person in and then calls this API', { consoleSignIn: true }],
    consoleAssets: ['GET /console/{asset}',         'public', "The admin console's scripts and styles"],
  },
  Users: {
    createUser: ['POST /v2/users',             'write', 'Create a user'],
    listUsers:  ['GET /v2/users',              'read',  'List all users'],
    getUser:    ['GET /v2/users/{user_id}',    'read',  'Get a user'],
    updateUser: ['PATCH /v2/users/{user_id}',  'write', 'Update a user'],
    deleteUser: ['DELETE /v2/users/{user_id}', 'write', 'Delete a user'],
  },
  Departments: {
    createDepartment:      ['POST /v2/departments',                                   'write', 'Create a department'],
    listDepartments:       ['GET /v2/departments',                                    'read',  'List departments'],
    getDepartment:         ['GET /v2/departments/{department_id}',                    'read',  'Get a department'],
    updateDepartment:      ['PATCH /v2/departments/{department_id}',                  'write', 'Rename a department'],
    listDepartmentUsers:   ['GET /v2/departments/{department_id}/users',              'read',  'List the users of one department (E1 restricted to it)'],
    listMemberUsers:       ['GET /v2/departments/users',                              'read',  'list users that belong to any department', { label: 'E1' }],
    addDepartmentUser:     ['POST /v2/departments/{department_id}/users/{user_id}',   'write', 'add a user to a department (moving it out of any other)', { label: 'E2' }],
    // A bulk move of 1,000 users is up to ~110 transactions in a row (lib/departments/bulk-move/), ~13 s on DynamoDB Local: E3 and E5 get G3's time.
    addDepartmentUsers:    ['POST /v2/departments/{department_id}/users',             'write', 'add up to 1,000 users to a department, all or nothing', { label: 'E3', timeoutSeconds: 28 }],
    removeDepartmentUser:  ['DELETE /v2/departments/{department_id}/users/{user_id}', 'write', 'remove a user from a department', { label: 'E4' }],
    removeDepartmentUsers: ['DELETE /v2/departments/{department_id}/users',           'write', 'remove up to 1,000 users from a department, all or nothing', { label: 'E5', timeoutSeconds: 28 }],
    getDepartmentQuotas:   ['GET /v2/departments/{department_id}/quotas',             'read',  "read a department's quotas", { label: 'E6', aliases: ['/departments/{department_id}/quotas'] }],
    setDepartmentQuota:    ['PUT /v2/departments/{department_id}/quotas',             'write', 'set or remove one quota limit', { label: 'E7' }],
    deleteDepartment:      ['DELETE /v2/departments/{department_id}',                 'write', 'delete an empty department', { label: 'E8' }],
  },
  Groups: {
    getGroup:        ['GET /v2/groups/{group_id}',                    'read',  'get a group with its users (the first 1,000, and the cursor of the rest)', { label: 'G1', timeoutSeconds: 28 }],
    listGroupUsers:  ['GET /v2/groups/{group_id}/users',              'read',  "List a group's users, a page at a time", { timeoutSeconds: 28 }],
    listGroups:      ['GET /v2/groups',                               'read',  'list groups', { label: 'G2' }],
    createGroup:     ['POST /v2/groups',                              'write', 'create a group, optionally with up to 10,000 users (all or nothing)', { label: 'G3', timeoutSeconds: 28, throttle: COSTLY_WRITE }],
    addGroupUser:    ['POST /v2/groups/{group_id}/users/{user_id}',   'write', 'add a user to a group', { label: 'G4' }],
    removeGroupUser: ['DELETE /v2/groups/{group_id}/users/{user_id}', 'write', 'remove a user from a group', { label: 'G5' }],
    deleteGroup:     ['DELETE /v2/groups/{group_id}',                 'write', 'delete a group (its users stay)', { label: 'G6' }],
    deleteGroups:    ['DELETE /v2/groups',                            'write', 'delete up to 100 groups, all or nothing', { label: 'G7' }],
    updateGroup:     ['PATCH /v2/groups/{group_id}',                  'write', 'Rename or re-describe a group'],
  },
  Audit: {
    listAudit: ['GET /v2/audit', 'read', 'The audit trail of every change, newest first'],
    listChanges: ['GET /v2/changes', 'read', 'The change feed: every change, oldest first, by a cursor that never ends'],
  },
  Webhooks: {
    createWebhook:         ['POST /v2/webhooks',                             'write', 'Register an endpoint that receives every change (its signing secret is shown once)', { secretInAnswer: true }],
    listWebhooks:          ['GET /v2/webhooks',                              'read',  'List webhooks (without secrets)'],
    getWebhook:            ['GET /v2/webhooks/{webhook_id}',                 'read',  'Get a webhook'],
    updateWebhook:         ['PATCH /v2/webhooks/{webhook_id}',               'write', "Change a webhook's URL, description or filters, pause or resume it", { webhookQueue: 'send' }],
    deleteWebhook:         ['DELETE /v2/webhooks/{webhook_id}',              'write', 'Delete a webhook'],
    rotateWebhookSecret:   ['POST /v2/webhooks/{webhook_id}/secret',         'write', 'Make a new signing secret (shown once); the old one still verifies for 24 hours', { secretInAnswer: true }],
    // The attempt itself may take its whole 10 s timeout.
    testWebhook:           ['POST /v2/webhooks/{webhook_id}/test',           'write', 'Send a ping event to the endpoint now and answer how it went', { timeoutSeconds: 20 }],
    listWebhookDeliveries: ['GET /v2/webhooks/{webhook_id}/deliveries',      'read',  "A webhook's delivery attempts, newest first"],
  },
  Reports: {
    createDepartmentsReport:   ['POST /v2/departments/exports',                     'write', 'start a departments report (CSV), optionally e-mailed', { label: 'E9', throttle: COSTLY_WRITE }],
    getDepartmentsReport:      ['GET /v2/departments/exports/{report_id}',          'read',  'Status of a departments report, with its download link once complete', { reportsBucket: 'presign' }],
    downloadDepartmentsReport: ['GET /v2/departments/exports/{report_id}/download', 'read',  "Redirect (303) to a departments report's CSV", { reportsBucket: 'presign' }],
    createGroupsReport:        ['POST /v2/groups/exports',                          'write', 'start a groups report (CSV), optionally e-mailed', { label: 'G8', throttle: COSTLY_WRITE }],
    getGroupsReport:           ['GET /v2/groups/exports/{report_id}',               'read',  'Status of a groups report, with its download link once complete', { reportsBucket: 'presign' }],
    downloadGroupsReport:      ['GET /v2/groups/exports/{report_id}/download',      'read',  "Redirect (303) to a groups report's CSV", { reportsBucket: 'presign' }],
    // Public: the report e-mail's link, opened by a mail reader without a token; its secret is the key (lib/reports/email-link.ts).
    downloadEmailedReport:     ['GET /v2/reports/{report_id}/email-download',       'public', "Redirect (303) to an e-mailed report's CSV: the e-mail's link", { reportsBucket: 'presign' }],
  },
  'SCIM tokens': {
    createScimToken: ['POST /v2/scim/tokens',              'write', 'Make a SCIM token for an identity provider (its secret is shown once)', { secretInAnswer: true }],
    listScimTokens:  ['GET /v2/scim/tokens',               'read',  'List SCIM tokens (without secrets)'],
    deleteScimToken: ['DELETE /v2/scim/tokens/{token_id}', 'write', 'Revoke a SCIM token'],
  },
  SCIM: {
    scimServiceProviderConfig: ['GET /scim/v2/ServiceProviderConfig',         'scim', 'SCIM: what the service supports'],
    scimResourceTypes:         ['GET /scim/v2/ResourceTypes',                 'scim', 'SCIM: the resource types'],
    scimResourceType:          ['GET /scim/v2/ResourceTypes/{resource_type}', 'scim', 'SCIM: one resource type'],
    scimSchemas:               ['GET /scim/v2/Schemas',                       'scim', 'SCIM: the schemas of the attributes the service keeps'],
    scimSchema:                ['GET /scim/v2/Schemas/{schema_id}',           'scim', 'SCIM: one schema'],
    scimListUsers:             ['GET /scim/v2/Users',                         'scim', 'SCIM: list or find users (filter, startIndex, count)', { throttle: COSTLY_LIST }],
    scimCreateUser:            ['POST /scim/v2/Users',                        'scim', 'SCIM: create a user'],
    scimGetUser:               ['GET /scim/v2/Users/{user_id}',               'scim', 'SCIM: get a user'],
    scimReplaceUser:           ['PUT /scim/v2/Users/{user_id}',               'scim', 'SCIM: replace a user'],
    scimPatchUser:             ['PATCH /scim/v2/Users/{user_id}',             'scim', 'SCIM: change a user (PatchOp, all operations or none)'],
    scimDeleteUser:            ['DELETE /scim/v2/Users/{user_id}',            'scim', 'SCIM: delete a user'],
    scimListGroups:            ['GET /scim/v2/Groups',                        'scim', 'SCIM: list or find groups', { throttle: COSTLY_LIST, timeoutSeconds: 28 }],
    scimCreateGroup:           ['POST /scim/v2/Groups',                       'scim', 'SCIM: create a group', { timeoutSeconds: 28 }],
    scimGetGroup:              ['GET /scim/v2/Groups/{group_id}',             'scim', 'SCIM: get a group', { timeoutSeconds: 28 }],
    scimReplaceGroup:          ['PUT /scim/v2/Groups/{group_id}',             'scim', 'SCIM: replace a group', { timeoutSeconds: 28 }],
    scimPatchGroup:            ['PATCH /scim/v2/Groups/{group_id}',           'scim', 'SCIM: change a group and its members (PatchOp, all or nothing)', { timeoutSeconds: 28 }],
    scimDeleteGroup:           ['DELETE /scim/v2/Groups/{group_id}',          'scim', 'SCIM: delete a group'],
  },
} as const satisfies Record<Tag, Record<string, Row>>;

type Table = typeof ROUTE_TABLE;

/** The name of every operation of the table: handlers are typed by it (`operation('addDepartmentUser', …)`). */
export type OperationName = { [T in Tag]: keyof Table[T] & string }[Tag];
/** The names of the operations under one tag. */
export type OperationNameOf<T extends Tag> = keyof Table[T] & string;

/** The table's rows as routes, in its order. */
function routesOf(table: Table): Route<OperationName>[] {
  return Object.entries(table).flatMap(([tag, rows]) =>
    Object.entries(rows as Record<string, Row>).map(([name, [routeKey, access, summary, options]]) => {
      const [method, path] = routeKey.split(' ') as [HttpMethod, string];
      return { name: name as OperationName, method, path, access, summary, tag: tag as Tag, ...options };
    }),
  );
}

// Pure: a bundle that reads no route (the fallback's) leaves the table out.
export const routes: readonly Route<OperationName>[] = /* @__PURE__ */ routesOf(ROUTE_TABLE);

/**
 * What the audit trail records as the operation of a change: the contract's
 * label where the operation has one (`E2`), else its name (`createUser`).
 */
export function auditedOperation(name: OperationName): string {
  return routes.find((route) => route.name === name)?.label ?? name;
}

/**
 * Every concrete path a route answers on: its path, its aliases, and for
 * paths that end in a literal segment the `.json` form (not SCIM's). A path ending in a
 * parameter needs no second form: the parameter captures `id.json`, and the
 * request middleware strips the suffix (ids never contain a dot). Nor does a
 * path that already names a file (`/v2/openapi.json`, `/docs/redoc.standalone.js`).
 */
export function servedPaths(route: Route): string[] {
  const paths = [route.path, ...(route.aliases ?? [])];
  // SCIM's paths are SCIM's: no `.json` forms there.
  if (route.access === 'scim') return paths;
  return paths.flatMap((path) => (path.endsWith('}') || /\.[a-z]+$/.test(path) ? [path] : [path, `${path}.json`]));
}

/**
 * The methods a route is served under: its own, and HEAD for a GET (HEAD is
 * answered wherever GET is, by the same function, without the body).
 */
export function servedMethods(route: Route): ServedMethod[] {
  return route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
}

/** A route key as API Gateway writes it: a served method, a space, a served path. */
export type RouteKey = `${ServedMethod} ${string}`;

/** Every route key (`GET /v2/users`, `HEAD /v2/users.json`, ...) a route is served under, as API Gateway writes them. */
export function routeKeys(route: Route): RouteKey[] {
  return servedMethods(route).flatMap((method) => servedPaths(route).map((path): RouteKey => `${method} ${path}`));
}

/**
 * The function that answers every request no route key matches: API
 * Gateway's `$default` route on AWS, and the local gateway's fallback. It
 * reads the route keys of this table (ROUTE_KEYS_FILE), so routes added to it
 * are covered with nothing more: 405 `method-not-allowed` with `Allow` on a
 * path some route serves, else 404.
 */
export const FALLBACK_FUNCTION = {
  name: 'Fallback',
  /** Module name under `functions/`. */
  handler: 'fallback',
  routeKey: '$default',
  summary: 'Answers requests no route matches: 404, or 405 with Allow on a path served with other methods',
} as const;

/**
 * The fallback function's data: `routes.flatMap(routeKeys)` as JSON, written
 * next to its bundle by the build (infra/bundling.ts), so the function
 * carries the methods and paths it needs as a file it reads on first use, not
 * the whole table (summaries, access, ...) as code loaded at every cold start.
 */
export const ROUTE_KEYS_FILE = 'route-keys.json';
