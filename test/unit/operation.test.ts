import type { Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { Problem } from '../../lib/problems';
import { operation, type HttpEvent } from '../../lib/http/operation';
import { scimOperation } from '../../lib/http/scim';
import type { OperationName } from '../../lib/routes';
import type { User } from '../../lib/schemas/responses';
import { ADA } from '../support/fixtures';

const context = { awsRequestId: 'aws-req-1', functionName: 'test', getRemainingTimeInMillis: () => 1000 } as unknown as Context;

function event(overrides: Partial<HttpEvent> = {}): HttpEvent {
  return {
    version: '2.0',
    routeKey: 'POST /things/{thing_id}',
    rawPath: '/things/t1',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    pathParameters: { thing_id: 't1.json' },
    requestContext: { requestId: 'req-42', authorizer: { jwt: { claims: { sub: 'alice' }, scopes: [] } } },
    body: '{"name":"x"}',
    isBase64Encoded: false,
    ...overrides,
  } as unknown as HttpEvent;
}

const spec = { params: z.strictObject({ thing_id: z.string() }), body: z.strictObject({ name: z.string() }) };
/** Not a route of the table: the pipeline does not care which operation it runs. */
const T1 = 'T1' as OperationName;

describe('operation pipeline', () => {
  it('hands the operation validated input, the actor and the id without .json', async () => {
    const handler = operation(T1, spec, async (input) => ({ body: { params: input.params, body: input.body, actor: input.ctx.actor } }));
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body!)).toEqual({ params: { thing_id: 't1' }, body: { name: 'x' }, actor: 'alice' });
  });

  it('turns a domain error into its problem', async () => {
    const handler = operation(T1, spec, async () => {
      throw new Problem('quota-exceeded', 'too many', { overages: [] });
    });
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.body!)).toEqual({
      type: '/problems/quota-exceeded',
      title: 'Quota exceeded',
      status: 409,
      detail: 'too many',
      overages: [],
    });
  });

  it('answers an unexpected error with a bare 500 internal problem carrying the request id', async () => {
    const handler = operation(T1, spec, async () => {
      throw new TypeError('secret table name dept-admin-Table123 exploded at lib/x.ts:1');
    });
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(500);
    const body = JSON.parse(response.body!);
    expect(body).toEqual({
      type: '/problems/internal',
      title: 'Internal error',
      status: 500,
      detail: 'An unexpected error occurred.',
      request_id: 'req-42',
    });
    expect(response.body).not.toMatch(/secret|Table123|lib\/x/);
  });

  it('turns an answer over the 6 MB Lambda can return into a logged 500 problem, in both pipelines (a HEAD of it is fine)', async () => {
    const huge = 'x'.repeat(6_291_456);
    const handler = operation(T1, {}, async () => ({ body: { huge } }));
    const response = await handler(event({ body: undefined }), context);
    expect(response.statusCode).toBe(500);
    const problem = JSON.parse(response.body!);
    expect(problem).toMatchObject({ type: '/problems/internal', status: 500 });
    expect(problem.detail).toMatch(/more than the 6291456 a function of this service can return/);
    const head = await handler(event({ body: undefined, requestContext: { requestId: 'h', http: { method: 'HEAD' } } } as never), context);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBeUndefined();
    const scim = scimOperation(T1, async () => ({ body: { huge } }));
    const scimEvent = event({
      body: undefined,
      pathParameters: { thing_id: 't1' },
      requestContext: { requestId: 's', authorizer: { lambda: { tokenId: 't' } } },
    } as never);
    const scimResponse = await scim(scimEvent, context);
    expect(scimResponse.statusCode).toBe(500);
    expect(JSON.parse(scimResponse.body!)).toMatchObject({ status: '500', detail: expect.stringMatching(/6291456/) });
  });

  it("hands the domain the name the audit trail records: the contract's label where the operation has one", async () => {
    const audited: string[] = [];
    for (const name of ['addDepartmentUser', 'createUser'] as const) {
      const handler = operation(name, {}, async ({ ctx }) => {
        audited.push(ctx.operationId);
        throw new Problem('not-found', 'nothing here');
      });
      expect((await handler(event(), context)).statusCode).toBe(404);
    }
    expect(audited).toEqual(['E2', 'createUser']);
  });

  it('decodes base64 bodies and refuses non-JSON ones with 415', async () => {
    const handler = operation(T1, spec, async (input) => ({ body: input.body }));
    const encoded = await handler(event({ body: Buffer.from('{"name":"b64"}').toString('base64'), isBase64Encoded: true }), context);
    expect(JSON.parse(encoded.body!)).toEqual({ name: 'b64' });
    const wrongType = await handler(event({ headers: { 'content-type': 'text/plain' } }), context);
    expect(wrongType.statusCode).toBe(415);
  });
});

/** A user as the service answers it. */
const user: User = { ...ADA, activated: true, department_id: 'eng' };

// Checked by `tsc --noEmit` (npm test runs it): each `@ts-expect-error` fails the check if its line stops being an error.
describe('operation names and replies (types)', () => {
  it('accepts only names of the route table, and replies its documented responses describe', () => {
    const handlers = [
      operation('addDepartmentUser', {}, async () => ({ body: user, headers: { etag: '"1"' } })),
      operation('createUser', {}, async () => ({ status: 201, body: user })),
      operation('removeDepartmentUser', {}, async () => ({ status: 204 })),
      // @ts-expect-error a name that is not in the route table
      operation('addDepartmentUsr', {}, async () => ({ body: user })),
      // @ts-expect-error a field the user schema does not have
      operation('addDepartmentUser', {}, async () => ({ body: { ...user, departmentId: 'eng' } })),
      // @ts-expect-error a field of another operation's answer (a department, not a user)
      operation('addDepartmentUser', {}, async () => ({ body: { id: 'eng', name: 'Engineering' } })),
      // @ts-expect-error a status the operation does not document (createUser answers 201)
      operation('createUser', {}, async () => ({ status: 200, body: user })),
      // @ts-expect-error a body on a documented 204
      operation('removeDepartmentUser', {}, async () => ({ status: 204, body: user })),
    ];
    expect(handlers.map((handler) => handler.spec.name)).toEqual([
      'addDepartmentUser',
      'createUser',
      'removeDepartmentUser',
      'addDepartmentUsr',
      'addDepartmentUser',
      'addDepartmentUser',
      'createUser',
      'removeDepartmentUser',
    ]);
  });
});
