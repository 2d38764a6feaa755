/**
 * Builds the OpenAPI 3.1 document from its three sources, and from nothing
 * else: the route table (paths, methods, ids, summaries, tags, access), each
 * handler's request schemas (`handler.spec`: path, query, body) and the
 * docs-only operation notes (lib/openapi/operations.ts: responses, problems,
 * texts, examples). Schemas become JSON Schema through zod's own converter,
 * so bounds (count 1–1000, name 1–200 characters, ...) come from the schemas
 * that validate requests.
 *
 * It imports no handler: lib/openapi/generate.ts loads them and calls it.
 */
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { PROBLEM_STATUS, PROBLEM_TITLE, type ProblemSlug } from '../problems';
import { requiredScope, servedPaths, type Route } from '../routes';
import { IDEMPOTENCY_HEADER, KEY_PATTERN } from '../http/idempotency';
import { operationDocs as defaultOperationDocs, type OperationDoc, type ResponseDoc } from './operations';
import { PARAMETER_EXAMPLES } from './parameters';
import { SCIM_DOCUMENTED, scimOperationObject } from './scim';
import { SCIM_SCHEMAS, SCIM_SECURITY, SCIM_SECURITY_SCHEME } from './scim-schemas';
import { ALL_SLUGS, componentSchemas, parameterSchemas, problemComponent, requestSchema, stripDialect, type Json } from './schemas';

export { problemComponent };

/** The request schemas of an operation, as its handler's `spec` holds them. */
export interface RequestSpec {
  params?: $ZodType;
  query?: $ZodType;
  body?: $ZodType;
}

export interface BuildInput {
  routes: readonly Route[];
  /** Each route's request schemas by operation id, or why they could not be read. */
  specs: ReadonlyMap<string, RequestSpec | Error>;
  operationDocs?: Readonly<Record<string, OperationDoc>>;
  version: string;
}

export interface BuildResult {
  document: OpenApiDocument;
  /** What keeps the document from being complete; empty when it is. */
  problems: string[];
}

export type OpenApiDocument = Json & {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
};

export const SECURITY_SCHEME = 'bearerAuth';
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Headers a problem always carries (lib/http/problem.ts). */
const PROBLEM_HEADERS: Partial<Record<ProblemSlug, Json>> = {
  'too-many-requests': {
    'Retry-After': {
      description: 'Seconds until the request can succeed again.',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

const TAGS: Record<Route['tag'], string> = {
  Users: 'Users of the organisation *(ext)*: the people departments and groups are made of.',
  Departments: 'Departments (E1–E8): each user is in at most one, within the quotas of the department.',
  Groups: 'Groups v2 (G1–G7): a user can be in any number of groups.',
  Reports: 'CSV reports (E9, G8): create, poll, download; optionally e-mailed.',
  Audit: 'The audit trail of every change.',
  Webhooks:
    'Endpoints that receive every change, signed as the Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, with retries for more than 24 hours.',
  Service: 'Health, this document and its documentation page; no token needed.',
  'SCIM tokens': 'Tokens for an identity provider to provision through SCIM 2.0 (JWT-authorized like every admin route).',
  SCIM: 'SCIM 2.0 (RFC 7643, RFC 7644) under `/scim/v2`, for identity providers (Okta, Entra ID): a SCIM token as bearer, `application/scim+json`, SCIM errors.',
};

const DESCRIPTION = `The department and group administration API (contract v2). Ids E1–E9 and G1–G8 are those of the original description.

- **Auth**: every operation except the *Service* ones needs \`Authorization: Bearer <token>\` with scope \`admin/read\` (GET) or \`admin/write\` (everything else). Missing or wrong token: 401; a read-only token on a change: 403.
- **\`.json\` suffix**: any path may end in \`.json\` (\`/v2/groups/g1.json\` is \`/v2/groups/g1\`): a path that ends in a parameter allows it in that parameter's pattern, and every other path has its \`.json\` twin listed (operation id ending in \`Json\`).
- **Bodies**: JSON with \`Content-Type: application/json\`, at most 1 MiB (413); other media types 415. Malformed JSON, a wrong shape, an unknown field or a value out of range: 400.
- **Ids**: \`^[A-Za-z0-9_-]{1,64}$\`; the server makes one when a create request gives none. **Times**: ISO 8601 UTC.
- **Errors**: RFC 9457 problem details (\`application/problem+json\`), \`type\` \`/problems/<slug>\`; see each response for its slugs and extra members. No request gets a 5xx for bad input.
- **Methods**: \`HEAD\` is answered wherever \`GET\` is (same status and headers, no body). A known path with a method it does not serve: 405 \`method-not-allowed\` with \`Allow\`; an unknown path: 404.
- **Lists**: \`count\` (1–1000, default 100) and \`offset\` or \`cursor\` (an empty \`cursor\` is the first page); the answer carries \`total\`, \`count\` and \`offset\`. Order is stable: ties are broken by \`id\`.
- **Idempotency-Key**: any POST, PUT, PATCH or DELETE may carry one. Keys belong to their caller (the token's subject, or the SCIM token): a repeat by the same caller with the same key, method, path, query and body within 24 hours answers the first answer again without doing anything again; the same key with another request: 422. An answer that shows a secret (a new SCIM token) is never kept: its repeat is 409.
- **Concurrency**: GET of a user, department or group carries an \`ETag\`; PATCH and DELETE of those honour \`If-Match\` (412 on a stale tag). Any change may answer 409 \`conflict\` when a concurrent change to the same resources won: retry it.`;

/** Default texts of parameters by name; operations.ts gives the rest. */
const PARAMETER_TEXT: Record<string, string> = {
  user_id: 'Id of the user.',
  department_id: 'Id of the department.',
  group_id: 'Id of the group.',
  report_id: 'Id of the report.',
  webhook_id: 'Id of the webhook (`id` of its creation).',
  count: 'How many items to return (1–1000).',
  offset: 'How many matching items to skip (0–10000: an offset reads what it skips; walk further with `cursor`). Not with `cursor`.',
  cursor:
    "The `next_cursor` of the previous page: the page after it, with the same `sort` and `query` (another list's cursor, or an altered one: 400). Not with `offset`.",
  dry_run: '`true`: answer what the request would give (the result, or the 404/409 problem with its `overages`) and change nothing.',
};

/** `idempotency-key` → `Idempotency-Key`. */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/** Every change (any method but GET) takes an Idempotency-Key: lib/http/operation.ts runs lib/http/idempotency.ts for all of them. */
const takesIdempotencyKey = (route: Route) => route.method !== 'GET';

// --- operations ----------------------------------------------------------------

interface OperationContext {
  route: Route;
  spec: RequestSpec;
  doc: OperationDoc;
  nameOf: Map<$ZodType, string>;
  problems: string[];
}

function parametersOf({ route, spec, doc, problems }: OperationContext): Json[] {
  const parameters: Json[] = [];
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const add = (location: 'path' | 'query', schema: $ZodType | undefined, { jsonSuffix = true } = {}) => {
    if (!schema) return;
    const { properties, required } = parameterSchemas(schema);
    for (const [name, property] of Object.entries(properties)) {
      const description = doc.parameters?.[name] ?? PARAMETER_TEXT[name];
      if (!description) problems.push(`${route.name}: parameter "${name}" has no description (operations.ts)`);
      const example = doc.parameterExamples?.[name] ?? PARAMETER_EXAMPLES[name];
      if (example === undefined) problems.push(`${route.name}: parameter "${name}" has no example (parameters.ts or operations.ts)`);
      const schema: Json = { ...property, ...doc.parameterSchemas?.[name] };
      // The last segment of a path takes the `.json` suffix, so its parameter's pattern says so.
      const last = jsonSuffix && location === 'path' && route.path.endsWith(`{${name}}`);
      if (last && typeof schema.pattern === 'string') schema.pattern = schema.pattern.replace(/\$$/, '(?:\\.json)?$');
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.includes(name),
        ...(description ? { description: last ? `${description} It may end in \`.json\`, as any path may.` : description } : {}),
        schema,
        ...(example === undefined ? {} : { example }),
      });
    }
  };
  // A file route validates its path itself (its function stays free of zod): the documentation gives the schema, and
  // its last segment names a file, so no `.json` form.
  if (spec.params) add('path', spec.params);
  else add('path', doc.params, { jsonSuffix: false });
  add('query', spec.query);
  const documented = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (documented.join() !== pathNames.join()) {
    problems.push(`${route.name}: path parameters of ${route.path} are [${pathNames}], the handler's spec has [${documented}]`);
  }
  if (takesIdempotencyKey(route)) {
    parameters.push({
      name: headerName(IDEMPOTENCY_HEADER),
      in: 'header',
      required: false,
      description:
        'A fresh value for each request, e.g. a new UUID (in Postman `{{$guid}}`, as the example shows: it makes a new one each time). ' +
        'A repeat with the same key and the same method, path and body within 24 hours answers the first answer again (same status and body) without doing anything again; the same key with another request: 422. While the first is still running: 409.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: KEY_PATTERN.source },
      example: '{{$guid}}',
    });
  }
  if (doc.ifMatch) {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description:
        'Change only if the resource still has this `ETag` (e.g. `"3"`); otherwise 412 and nothing changes. `*` matches any version.',
      schema: { type: 'string' },
      example: '*',
    });
  }
  return parameters;
}

function responseObject(response: ResponseDoc, nameOf: Map<$ZodType, string>): Json {
  const result: Json = { description: response.description };
  if (response.headers) {
    result.headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, header]) => [
        name,
        { description: header.description, required: header.required ?? false, schema: { type: 'string' } },
      ]),
    );
  }
  if (response.schema) {
    const name = nameOf.get(response.schema);
    const schema = name ? { $ref: `#/components/schemas/${name}` } : stripDialect(toJSONSchema(response.schema, { io: 'output' }) as Json);
    result.content = { 'application/json': { schema } };
  } else if (response.media) {
    result.content = { [response.media.type]: { schema: response.media.schema } };
  }
  return result;
}

/** The problem slugs an operation can answer: its own, and those that follow from its kind. */
function problemSlugs({ route, spec, doc }: OperationContext): ProblemSlug[] {
  const slugs = new Set<ProblemSlug>(doc.problems ?? []);
  if (spec.params || spec.query || spec.body) slugs.add('validation');
  if (spec.body) ['payload-too-large', 'unsupported-media-type'].forEach((slug) => slugs.add(slug as ProblemSlug));
  if (route.access !== 'public') {
    slugs.add('unauthorized');
    slugs.add('unavailable');
  }
  if (route.access === 'write') {
    slugs.add('forbidden');
    slugs.add('conflict');
  }
  if (doc.ifMatch) slugs.add('precondition-failed');
  if (takesIdempotencyKey(route)) {
    slugs.add('validation');
    slugs.add('idempotency-key-reused');
  }
  slugs.add('internal');
  return [...slugs];
}

/** One response per status; a status several slugs share lists each of their schemas. */
function problemResponses(slugs: ProblemSlug[]): Record<string, Json> {
  const byStatus = new Map<number, ProblemSlug[]>();
  for (const slug of slugs) byStatus.set(PROBLEM_STATUS[slug], [...(byStatus.get(PROBLEM_STATUS[slug]) ?? []), slug]);
  const result: Record<string, Json> = {};
  for (const [status, group] of byStatus) {
    if (group.length === 1) {
      result[status] = { $ref: `#/components/responses/${problemComponent(group[0])}` };
      continue;
    }
    const sorted = [...group].sort();
    result[status] = {
      description: sorted.map((slug) => `${PROBLEM_TITLE[slug]} (\`${slug}\`)`).join(', or '),
      content: {
        [PROBLEM_MEDIA_TYPE]: { schema: { oneOf: sorted.map((slug) => ({ $ref: `#/components/schemas/${problemComponent(slug)}` })) } },
      },
    };
  }
  return result;
}

function operationObject(context: OperationContext, operationId: string, summary: string): Json {
  const { route, spec, doc, nameOf, problems } = context;
  const operation: Json = { operationId, summary, tags: [route.tag] };
  if (route.label) operation['x-contract-id'] = route.label;
  // The scope goes in words: `bearerAuth` is an HTTP scheme, whose requirement lists no scopes (only OAuth2 and OpenID Connect ones do).
  const scope = requiredScope(route.access);
  const access = scope ? `Needs a token with scope \`${scope}\`.` : 'No token needed.';
  operation.description = doc.description ? `${doc.description}\n\n${access}` : access;
  operation.security = scope ? [{ [SECURITY_SCHEME]: [] }] : [];
  if (scope) operation['x-required-scopes'] = [scope];
  const parameters = parametersOf(context);
  if (parameters.length > 0) operation.parameters = parameters;
  if (spec.body) {
    if (doc.requestExample === undefined) problems.push(`${route.name}: the request body has no example (operations.ts requestExample)`);
    operation.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: requestSchema(spec.body),
          ...(doc.requestExample === undefined ? {} : { example: doc.requestExample }),
        },
      },
    };
  } else if (doc.requestExample !== undefined) {
    problems.push(`${route.name}: has a request example but its handler takes no body`);
  }
  const successes = Object.fromEntries(
    Object.entries(doc.responses).map(([status, response]) => [status, responseObject(response, nameOf)]),
  );
  const all = { ...successes, ...problemResponses(problemSlugs(context)) };
  operation.responses = Object.fromEntries(Object.entries(all).sort(([a], [b]) => Number(a) - Number(b)));
  return operation;
}

/**
 * Every path of a route as the document lists it: its path, then each alias
 * (with an id of its own), each followed by its `.json` twin where the twin
 * is a path of its own (a path that ends in a parameter takes the suffix in
 * the parameter: see parametersOf). A validating proxy then accepts every
 * URL the service serves.
 */
function documentedPaths(route: Route): Array<{ path: string; operationId: string; summary: string }> {
  // The contract's id leads the summary, as readers of the contract look for it.
  const summary = route.label ? `${route.label}: ${route.summary}` : route.summary;
  const aliases = (route.aliases ?? []).map((path, i) => ({
    path,
    operationId: `${route.name}Alias${i + 1}`,
    summary: `${summary} (as ${route.path})`,
  }));
  return [{ path: route.path, operationId: route.name, summary }, ...aliases].flatMap((entry) =>
    servedPaths({ ...route, path: entry.path, aliases: [] }).map((path) =>
      path === entry.path ? entry : { path, operationId: `${entry.operationId}Json`, summary: `${entry.summary} (\`.json\` form)` },
    ),
  );
}

// --- the document ----------------------------------------------------------------

export function buildDocument({ routes, specs, operationDocs = defaultOperationDocs, version }: BuildInput): BuildResult {
  const problems: string[] = [];
  const { schemas, nameOf } = componentSchemas();
  const paths: Record<string, Record<string, Json>> = {};

  for (const route of routes) {
    if (route.access === 'scim') {
      // SCIM's conventions, not the admin API's: documented from lib/openapi/scim.ts.
      (paths[route.path] ??= {})[route.method.toLowerCase()] = scimOperationObject(route, problems);
      continue;
    }
    const doc = operationDocs[route.name];
    const spec = specs.get(route.name);
    if (!doc) problems.push(`${route.name}: no response documentation (add it to its tag's file in lib/openapi/operation-docs/)`);
    if (spec instanceof Error) problems.push(`${route.name}: cannot read functions/${route.name}.ts: ${spec.message}`);
    else if (!spec) problems.push(`${route.name}: no request spec was given`);
    const context: OperationContext = {
      route,
      spec: spec instanceof Error || !spec ? {} : spec,
      doc: doc ?? { responses: {} },
      nameOf,
      problems,
    };
    for (const { path, operationId, summary } of documentedPaths(route)) {
      paths[path] ??= {};
      try {
        paths[path][route.method.toLowerCase()] = operationObject(context, operationId, summary);
      } catch (error) {
        // One operation's schema zod cannot express must not take the whole document (and every HTTP test) down.
        problems.push(`${operationId}: cannot be documented: ${error instanceof Error ? error.message : String(error)}`);
        paths[path][route.method.toLowerCase()] = operationObject({ ...context, spec: {} }, operationId, summary);
      }
    }
  }
  for (const operationId of [...Object.keys(operationDocs), ...SCIM_DOCUMENTED]) {
    if (!routes.some((route) => route.name === operationId)) problems.push(`${operationId}: documented but not in the route table`);
  }

  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Department and group administration API',
      version,
      description: DESCRIPTION,
      contact: { name: 'The team that runs this deployment (its operators answer for its tokens and data)' },
    },
    servers: [{ url: '/', description: 'The deployment that serves this document' }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name, description: TAGS[name] })),
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "An access token of the deployment's identity provider (Cognito, or the issuer given at deploy time) with scope `admin/read` for GET operations and `admin/write` for the rest. Locally: the tokens `npm start` prints.",
        },
        [SCIM_SECURITY_SCHEME]: SCIM_SECURITY,
      },
      schemas: { ...schemas, ...SCIM_SCHEMAS },
      responses: Object.fromEntries(
        ALL_SLUGS.map((slug) => [
          problemComponent(slug),
          {
            description: `${PROBLEM_TITLE[slug]} (\`${slug}\`)`,
            ...(PROBLEM_HEADERS[slug] ? { headers: PROBLEM_HEADERS[slug] } : {}),
            content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: `#/components/schemas/${problemComponent(slug)}` } } },
          },
        ]),
      ),
    },
  };
  pruneUnused(document);
  return { document, problems: [...new Set(problems)] };
}

/** Drops shared responses and non-problem schemas no operation refers to (every problem schema stays: the slug list). */
function pruneUnused(document: OpenApiDocument): void {
  const { components } = document;
  const referenced = (value: unknown): Set<string> => {
    const found = new Set<string>();
    JSON.stringify(value, (key, inner) => {
      if (key === '$ref' && typeof inner === 'string') found.add(inner);
      return inner;
    });
    return found;
  };
  const fromPaths = referenced(document.paths);
  for (const name of Object.keys(components.responses)) {
    if (!fromPaths.has(`#/components/responses/${name}`)) delete components.responses[name];
  }
  const problemNames = new Set(ALL_SLUGS.map(problemComponent));
  let used = referenced([document.paths, components.responses]);
  // Follow references between schemas until nothing new turns up.
  for (let size = -1; size !== used.size;) {
    size = used.size;
    used = new Set([...used, ...referenced([...used].map((ref) => components.schemas[ref.split('/').pop()!]))]);
  }
  for (const name of Object.keys(components.schemas)) {
    if (!problemNames.has(name) && !used.has(`#/components/schemas/${name}`)) delete components.schemas[name];
  }
}

/** The served forms of a documented path (its `.json` twin), for matching requests to operations. */
export function servedFormsOf(path: string): string[] {
  return servedPaths({ path } as Route);
}
