/**
 * The document's parameters as clients read them: every
 * parameter and header has an example its schema accepts, and the enums and
 * patterns the document adds for generators (sort, query, last_login, the
 * exports' email) accept every value the service's parsers accept, and
 * (where a pattern can say it) nothing else.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditListRequest, namedListRequest, userListRequest } from '../../lib/http/list-params';
import type { OpenApiDocument } from '../../lib/openapi/document';
import { generateDocument } from '../../lib/openapi/generate';
import { parseRecipients } from '../../lib/reports/recipients';
import { ACCOUNT_ROLES, NAMED_SORT_FIELDS, USER_SORT_FIELDS } from '../../lib/schemas/enums';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

let document: OpenApiDocument;
let operations: Array<{ where: string; operation: Json }>;

beforeAll(async () => {
  ({ document } = await generateDocument());
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
  );
}, 60_000);

const parameterOf = (operationId: string, name: string): Json => {
  const found = operations.find(({ operation }) => operation.operationId === operationId);
  return found!.operation.parameters.find((parameter: Json) => parameter.name === name);
};
const patternOf = (operationId: string, name: string) => new RegExp(parameterOf(operationId, name).schema.pattern, 'u');

const accepts = (parse: () => unknown) => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

describe('parameter examples', () => {
  it('gives every parameter and header of every operation an example that its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    let checked = 0;
    for (const { where, operation } of operations) {
      for (const parameter of operation.parameters ?? []) {
        expect(parameter.example, `${where} ${parameter.name}`).toBeDefined();
        const validate = ajv.compile(parameter.schema);
        expect(validate(parameter.example), `${where} ${parameter.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('shows Idempotency-Key as a fresh value per request ({{$guid}}), and If-Match as *', () => {
    const key = parameterOf('createUser', 'Idempotency-Key');
    expect(key.example).toBe('{{$guid}}');
    expect(key.description).toMatch(/fresh value for each request.*\{\{\$guid\}\}/);
    expect(parameterOf('updateUser', 'If-Match').example).toBe('*');
  });

  it('gives the audit a valid since and before', () => {
    for (const name of ['since', 'before']) {
      const example = parameterOf('listAudit', name).example;
      expect(new Date(example).toISOString()).toBe(example);
    }
    expect(() => auditListRequest({ count: 1, since: parameterOf('listAudit', 'since').example })).not.toThrow();
  });
});

describe('sort', () => {
  it.each([
    ['listUsers', USER_SORT_FIELDS, (sort: string) => userListRequest({ count: 1, sort })],
    ['listMemberUsers', USER_SORT_FIELDS, (sort: string) => userListRequest({ count: 1, sort })],
    ['listDepartments', NAMED_SORT_FIELDS, (sort: string) => namedListRequest({ count: 1, sort })],
    ['listGroups', NAMED_SORT_FIELDS, (sort: string) => namedListRequest({ count: 1, sort })],
  ] as const)('%s: the enum is exactly what the list accepts', (operationId, fields, parse) => {
    const values: string[] = parameterOf(operationId, 'sort').schema.enum;
    expect(values).toHaveLength(2 + fields.length * 3);
    for (const value of values)
      expect(
        accepts(() => parse(value)),
        value,
      ).toBe(true);
    const candidate = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.constantFrom(...fields, 'name', 'id', 'Last_Name'), fc.constantFrom('', ':asc', ':desc', ':up', ':asc:desc'))
        .map(([f, d]) => f + d),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        if (value === '') return; // empty: as if absent
        expect(
          accepts(() => parse(value)),
          value,
        ).toBe(values.includes(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('query (filters)', () => {
  const term = (attributes: readonly string[], values: readonly string[]) =>
    fc.tuple(fc.constantFrom(...attributes, 'bogus'), fc.constantFrom(...values, '', 'a b', 'x:y')).map(([a, v]) => `${a}:${v}`);
  const filter = (attributes: readonly string[], values: readonly string[]) =>
    fc.oneof(
      fc.array(term(attributes, values), { minLength: 1, maxLength: 4 }).map((terms) => terms.join(',')),
      fc.string({ minLength: 1 }),
    );

  it.each([
    [
      'listUsers',
      ['account_role', 'last_name', 'department_id'],
      [...ACCOUNT_ROLES, 'Lov', 'eng', 'bad id!', 'ADMIN'],
      (query: string) => userListRequest({ count: 1, query }),
    ],
    ['listDepartments', ['name'], ['Eng', 'e'], (query: string) => namedListRequest({ count: 1, query })],
    ['listAudit', ['actor', 'operation', 'resource_id'], ['eng', 'E2'], (query: string) => auditListRequest({ count: 1, query })],
  ] as const)('%s: the pattern accepts exactly what the list accepts', (operationId, attributes, values, parse) => {
    const pattern = patternOf(operationId, 'query');
    expect(pattern.test(parameterOf(operationId, 'query').example)).toBe(true);
    fc.assert(
      fc.property(filter(attributes, values), (query) => {
        expect(pattern.test(query), query).toBe(accepts(() => parse(query)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('last_login and the exports’ email', () => {
  it('last_login: the pattern accepts whatever the list accepts, and rejects what is not never/since:/before:', () => {
    const pattern = patternOf('listUsers', 'last_login');
    const candidate = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('never', 'since:', 'before:', 'after:', 'Since:'),
          fc.oneof(
            fc.constant(''),
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.constantFrom('2026-01-01', '2026-1-1', '2026-01-01T10:00'),
          ),
        )
        .map(([kind, time]) => (kind === 'never' ? kind : kind + time)),
    );
    fc.assert(
      fc.property(candidate, (value) => {
        if (accepts(() => userListRequest({ count: 1, last_login: value }))) expect(pattern.test(value), value).toBe(true);
        if (!/^(never|(since|before):\d)/.test(value)) expect(pattern.test(value), value).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it.each(['createDepartmentsReport', 'createGroupsReport'])(
    '%s email: the pattern accepts exactly the lists of addresses the service takes',
    (operationId) => {
      const pattern = patternOf(operationId, 'email');
      const address = fc.constantFrom('ops@example.com', 'a.b+c@mail.example.org', 'no-at.example.com', 'x@y', 'x y@z.com', '', 'é@x.com');
      const list = fc.array(address, { minLength: 1, maxLength: 12 }).chain((parts) => fc.constantFrom(parts.join(','), parts.join(', ')));
      fc.assert(
        fc.property(list, (value) => {
          expect(pattern.test(value), value).toBe(accepts(() => parseRecipients(value)));
        }),
        { numRuns: 500 },
      );
    },
  );
});
