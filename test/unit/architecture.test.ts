/**
 * The layout rules of README's "Layout", checked on the import graph (dpdm):
 * no circular imports anywhere, imports run one way — functions → http and
 * the concept folders → store → db — lib/ never imports infra/, and only
 * lib/db and lib/store build DynamoDB commands.
 */
import { readFileSync } from 'node:fs';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { globSync } from 'glob';
import { beforeAll, describe, expect, it } from 'vitest';

type Tree = Awaited<ReturnType<typeof parseDependencyTree>>;
let tree: Tree;

beforeAll(async () => {
  tree = await parseDependencyTree(['functions/*.ts', 'lib/**/*.ts', 'infra/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'], {
    context: process.cwd(),
    tsconfig: 'tsconfig.json',
    transform: false, // type-only imports count too: a cycle of types is still a cycle to a reader
    skipDynamicImports: false,
  } as Parameters<typeof parseDependencyTree>[1]);
}, 60_000);

const PROJECT_FILE = /^(lib|functions|infra|bench|test)\//;

/** Every import of a project file by a project file, as [from, to]. */
const edges = () =>
  Object.entries(tree).flatMap(([from, dependencies]) =>
    (dependencies ?? []).filter((d) => d.id && PROJECT_FILE.test(d.id)).map((d) => [from, d.id!] as const),
  );

/** The layer of a file of lib/: its folder, or the file itself at the top. */
const layerOf = (file: string) =>
  file
    .replace(/^lib\//, '')
    .split('/')[0]
    .replace(/\.ts$/, '');

const CONCEPTS = ['users', 'departments', 'groups', 'audit', 'changes', 'lists', 'reports', 'scim', 'webhooks'];
/** What each layer of lib/ may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  db: ['config', 'text', 'tracing'],
  store: ['db', 'schemas', 'text', 'ids', 'config'],
  ...Object.fromEntries(
    CONCEPTS.map((concept) => [
      concept,
      [...CONCEPTS, 'store', 'db', 'schemas', 'problems', 'text', 'ids', 'config', 'log', 'aws', 'metrics', 'slow-changes'],
    ]),
  ),
  maintenance: [...CONCEPTS],
  // A webhook's `operations` filter names what audit entries record, which the route table defines (auditedOperation).
  webhooks: [...CONCEPTS, 'store', 'db', 'schemas', 'problems', 'text', 'ids', 'config', 'log', 'aws', 'metrics', 'routes'],
  http: [...CONCEPTS, 'store', 'db', 'schemas', 'problems', 'routes', 'log', 'text', 'metrics', 'slow-changes'],
  // A request's deadline and the 202 of a change that outlasts it (concepts throw it, http answers it).
  'slow-changes': ['log'],
  schemas: ['problems', 'text'],
  // The document quotes the limits it describes (e.g. how many report recipients).
  openapi: ['routes', 'schemas', 'problems', 'http', 'reports', 'scim', 'console', 'webhooks'],
  console: ['config'],
  problems: [],
  routes: [],
  config: [],
  text: [],
  ids: [],
  log: ['config'],
  aws: ['config', 'tracing'],
  metrics: ['config', 'log'],
  tracing: [],
  background: [],
  // Which groups give which scopes names the scopes the routes demand.
  auth: ['routes'],
};

describe('architecture', () => {
  it('has no circular imports', () => {
    expect(parseCircular(tree as never)).toEqual([]);
  });

  it('lib/ never imports infra/, functions/, bench/ or test/', () => {
    const outward = edges().filter(([from, to]) => from.startsWith('lib/') && !to.startsWith('lib/'));
    expect(outward).toEqual([]);
  });

  it('runs its imports one way inside lib/: functions → http and concepts → store → db', () => {
    const wrong = edges()
      .filter(([from, to]) => from.startsWith('lib/') && to.startsWith('lib/') && layerOf(from) !== layerOf(to))
      .filter(([from, to]) => !(ALLOWED[layerOf(from)] ?? []).includes(layerOf(to)))
      .map(([from, to]) => `${from} → ${to}`);
    expect(wrong).toEqual([]);
  });

  it('keeps handlers off the store and the database: they call the domain', () => {
    const wrong = edges().filter(([from, to]) => from.startsWith('functions/') && /^lib\/(store|db)\//.test(to));
    expect(wrong).toEqual([]);
  });

  it('builds DynamoDB commands only in lib/db and lib/store', () => {
    // lib/tracing.ts reads the TableName of any SDK call it traces, for the X-Ray subsegment; it builds no command.
    const outside = globSync('lib/**/*.ts').filter(
      (file) =>
        !/^lib\/(db|store)\//.test(file) &&
        file !== 'lib/tracing.ts' &&
        /TableName|@aws-sdk\/lib-dynamodb/.test(readFileSync(file, 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});
