/**
 * The OpenAPI document: complete for every route of the table,
 * faithful to the request schemas, lint-clean under Redocly's recommended
 * rules, and a checker (used by every HTTP test) that catches drift.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { safeParse } from 'zod/mini';
import { beforeAll, describe, expect, it } from 'vitest';
import { requiredScope, servedPaths } from '../../lib/routes';
import { PROBLEM_STATUS, type ProblemSlug } from '../../lib/problems';
import { problemComponent, type OpenApiDocument } from '../../lib/openapi/document';
import { generateDocument, loadRequestSpecs } from '../../lib/openapi/generate';
import { operationDocs, type OperationDoc } from '../../lib/openapi/operations';
import { ADA } from '../support/fixtures';
import { routes } from '../../lib/routes';
import { OpenApiChecker } from '../support/openapi-check';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let document: OpenApiDocument;
let problems: string[];

beforeAll(async () => {
  ({ document, problems } = await generateDocument());
}, 60_000);

const operationAt = (path: string, method: string) => document.paths[path]?.[method.toLowerCase()] as Record<string, any> | undefined;

describe('the OpenAPI document', () => {
  it('documents every route of the table, with nothing missing (handler, spec, responses, texts, examples)', () => {
    expect(problems).toEqual([]);
  });

  it.each(routes.map((route) => [route.name, route] as const))('%s: path, method, id, summary, tag and scope', (_, route) => {
    for (const [path, operationId] of [
      [route.path, route.name],
      ...(route.aliases ?? []).map((alias, i) => [alias, `${route.name}Alias${i + 1}`]),
    ]) {
      const operation = operationAt(path, route.method);
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation!.operationId).toBe(operationId);
      expect(operation!.summary).toContain(route.summary);
      // The contract's id, where the operation has one: first in the summary, and as x-contract-id.
      if (route.label) expect(operation!.summary.startsWith(`${route.label}: `)).toBe(true);
      expect(operation!['x-contract-id']).toBe(route.label);
      expect(operation!.tags).toEqual([route.tag]);
      const scope = requiredScope(route.access);
      if (route.access === 'scim') {
        // SCIM routes take a SCIM token (its own scheme); no JWT scope opens them.
        expect(operation!.security).toEqual([{ scimToken: [] }]);
      } else {
        // An HTTP bearer scheme's requirement lists no scopes (Spectral oas3-operation-security-defined): the scope is in words and in x-required-scopes.
        expect(operation!.security).toEqual(scope ? [{ bearerAuth: [] }] : []);
        expect(operation!['x-required-scopes']).toEqual(scope ? [scope] : undefined);
        expect(operation!.description).toContain(scope ? `Needs a token with scope \`${scope}\`.` : 'No token needed.');
      }
      if (route.access !== 'public') expect(Object.keys(operation!.responses)).toContain('401');
      if (route.access === 'write') expect(Object.keys(operation!.responses)).toContain('403');
    }
  });

  it('lists no operation that is not in the route table, and the .json twin of each path that does not end in a parameter', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = routes.flatMap((route) =>
      [route.path, ...(route.aliases ?? [])].flatMap((path) =>
        servedPaths({ ...route, path, aliases: [] }).map((served) => `${route.method} ${served}`),
      ),
    );
    expect(documented.sort()).toEqual(expected.sort());
    expect(operationAt('/v2/users.json', 'GET')!.operationId).toBe('listUsersJson');
    expect(operationAt('/departments/{department_id}/quotas.json', 'GET')!.operationId).toBe('getDepartmentQuotasAlias1Json');
  });

  it('accepts the .json suffix in the pattern of a parameter that ends a path, and nowhere else', () => {
    const pattern = (path: string, method: string, name: string) =>
      new RegExp(operationAt(path, method)!.parameters.find((p: Record<string, any>) => p.name === name).schema.pattern, 'u');
    expect(pattern('/v2/users/{user_id}', 'GET', 'user_id').test('ada.json')).toBe(true);
    expect(pattern('/v2/users/{user_id}', 'GET', 'user_id').test('ada.xml')).toBe(false);
    expect(pattern('/v2/departments/{department_id}/users/{user_id}', 'POST', 'user_id').test('ada.json')).toBe(true);
    expect(pattern('/v2/departments/{department_id}/users/{user_id}', 'POST', 'department_id').test('eng.json')).toBe(false);
  });

  it('gives every request body an example that its schema accepts', async () => {
    const specs = await loadRequestSpecs();
    for (const route of routes) {
      const spec = specs.get(route.name);
      if (!spec || spec instanceof Error || !spec.body) continue;
      const media = operationAt(route.path, route.method)!.requestBody.content['application/json'];
      expect(media.example, route.name).toEqual((operationDocs as Record<string, OperationDoc>)[route.name].requestExample);
      const parsed = safeParse(spec.body, media.example);
      expect(parsed.success, `${route.name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('takes parameter bounds and defaults from the request schemas', () => {
    const parameters = operationAt('/v2/departments/users', 'GET')!.parameters as Array<Record<string, any>>;
    const count = parameters.find((p) => p.name === 'count')!;
    expect(count).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } });
    const e3 = operationAt('/v2/departments/{department_id}/users', 'POST')!;
    expect(e3.requestBody.content['application/json'].schema.properties.user_ids).toMatchObject({ minItems: 1, maxItems: 1000 });
    const path = e3.parameters.find((p: Record<string, any>) => p.name === 'department_id');
    expect(path).toMatchObject({ in: 'path', required: true, schema: { pattern: '^[A-Za-z0-9_-]{1,64}$' } });
  });

  it('describes every problem slug as problem+json with its own members', () => {
    for (const slug of Object.keys(PROBLEM_STATUS) as ProblemSlug[]) {
      const schema = document.components.schemas[problemComponent(slug)] as Record<string, any>;
      expect(schema.properties.type).toEqual({ type: 'string', const: `/problems/${slug}` });
      expect(schema.properties.status).toEqual({ type: 'number', const: PROBLEM_STATUS[slug] });
      expect(schema.additionalProperties).toBe(false);
    }
    expect(document.components.schemas.QuotaExceededProblem.required).toContain('overages');
    const e8 = operationAt('/v2/departments/{department_id}', 'DELETE')!;
    expect(Object.keys(e8.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '412']));
  });

  it("passes Redocly's recommended rules with no errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document, null, 2));
      const cli = join(projectRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const output = await promisify(execFile)(process.execPath, [cli, 'lint', '--extends', 'recommended', '--format', 'json', file], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
      const report = JSON.parse(output.stdout.slice(output.stdout.indexOf('{'))) as {
        totals: { errors: number };
        problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
      };
      const errors = report.problems
        .filter((problem) => problem.severity === 'error')
        .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the drift check of the HTTP tests', () => {
  const user = ADA;
  const json = (status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json') => ({
    status,
    headers: new Headers({ 'content-type': type, ...headers }),
    text: JSON.stringify(body),
  });
  const check = (method: string, path: string, response: ReturnType<typeof json>) => () =>
    new OpenApiChecker(document).check({ method, path }, response);

  it('accepts what the document promises, also on a .json path', () => {
    expect(check('GET', '/v2/users/ada', json(200, user, { etag: '"1"' }))).not.toThrow();
    expect(check('GET', '/v2/users/ada.json?x=1', json(200, user, { etag: '"1"' }))).not.toThrow();
    const problem = { type: '/problems/not-found', title: 'Not found', status: 404, detail: 'User "x" does not exist.' };
    expect(check('GET', '/v2/users/x', json(404, problem, {}, 'application/problem+json'))).not.toThrow();
    expect(check('GET', '/v2/nowhere', json(404, problem, {}, 'application/problem+json'))).not.toThrow();
    expect(check('DELETE', '/v2/users/ada', { status: 204, headers: new Headers(), text: '' })).not.toThrow();
  });

  it('rejects an undocumented status, field, media type, body or missing header', () => {
    expect(check('GET', '/v2/users/ada', json(418, user, { etag: '"1"' }))).toThrow(/does not document status 418/);
    expect(check('GET', '/v2/users/ada', json(200, { ...user, version: 3 }, { etag: '"1"' }))).toThrow(
      /must NOT have additional properties/,
    );
    expect(check('GET', '/v2/users/ada', json(200, { ...user, activated: 'yes' }, { etag: '"1"' }))).toThrow(/activated must be boolean/);
    expect(check('GET', '/v2/users/ada', json(200, user))).toThrow(/header ETag/);
    expect(check('GET', '/v2/users/ada', json(200, user, { etag: '"1"' }, 'text/plain'))).toThrow(/answered text\/plain/);
    expect(check('DELETE', '/v2/users/ada', { status: 204, headers: new Headers(), text: 'gone' })).toThrow(/without a body/);
    const unknownSlug = { type: '/problems/teapot', title: 'Not found', status: 404, detail: '' };
    expect(check('GET', '/v2/users/x', json(404, unknownSlug, {}, 'application/problem+json'))).toThrow(/does not match/);
  });
});
