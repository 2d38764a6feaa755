/**
 * CloudFormation's quotas, per template of the stack (the root's and each
 * nested route stack's), as `cdk synth` writes them (test/infra/synth.ts
 * `asDeployed`): resources, the template's bytes, parameters, outputs and
 * mappings. A template above 60% of any quota fails here, long before a
 * deploy would: the route table grows a tag at a time, and a tag near its
 * limit is split (infra/route-stack.ts) while there is room.
 *
 * The headroom is shown, not projected: the stack is synthesized a second
 * time with every route of the table cloned under a synthetic name and path
 * in its own tag (each template holding twice its routes), and every
 * template of that stack must still be within 60% of every quota.
 *
 * The quotas (CloudFormation User Guide, "Understand CloudFormation quotas"):
 * 500 resources, a template body of 1 MB passed through S3 (as `cdk deploy`
 * does), 200 parameters, 200 outputs, 200 mappings per template; and 2,500
 * resources that one operation of a stack with nested stacks may create,
 * update or delete, the tree together. The figures of each template are
 * printed; the run's are in `.local/test-reports/quotas.md`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SynthesizedTemplate } from '../../infra/templates';
import { type Route, routes } from '../../lib/routes';
import { placeholderProject, synthesize } from './synth';

const SYNTH_TIMEOUT_MS = 240_000;
const REPORT = fileURLToPath(new URL('../../.local/test-reports/quotas.md', import.meta.url));

/** Per template. "1 MB" read as 10^6 bytes, the smaller reading. */
const QUOTAS = { resources: 500, bytes: 1_000_000, parameters: 200, outputs: 200, mappings: 200 } as const;
/** Resources one operation of the root stack may create, update or delete, its nested stacks' included. */
const TREE_RESOURCES = 2_500;
const SHARE = 0.6;

type Figures = Record<keyof typeof QUOTAS, number>;

const count = (section: object | undefined) => Object.keys(section ?? {}).length;
function figuresOf({ template, bytes }: SynthesizedTemplate): Figures {
  return {
    resources: count(template.Resources),
    bytes,
    parameters: count(template.Parameters),
    outputs: count(template.Outputs),
    mappings: count(template.Mappings),
  };
}

/** Each route again, under a name and path of its own, in its own tag; a clone is no sign-in page. */
function doubled(table: readonly Route[]): Route[] {
  const clone = (route: Route): Route => {
    const { consoleSignIn: _signIn, ...rest } = route;
    return {
      ...rest,
      name: `${route.name}Twin`,
      path: `/twin${route.path}`,
      ...(route.aliases ? { aliases: route.aliases.map((alias) => `/twin${alias}`) } : {}),
    };
  };
  return [...table, ...table.map(clone)];
}

const DOUBLED = doubled(routes);

let projectRoot: string;
let stackTemplates: SynthesizedTemplate[];
let doubledTemplates: SynthesizedTemplate[];

/** The figures of each template as a Markdown table, each figure with its share of the quota. */
function table(title: string, templates: readonly SynthesizedTemplate[]): string {
  const keys = Object.keys(QUOTAS) as Array<keyof typeof QUOTAS>;
  const share = (value: number, limit: number) => `${value} (${Math.round((100 * value) / limit)}%)`;
  const rows = templates.map((entry) => {
    const figures = figuresOf(entry);
    return `| ${entry.path} | ${keys.map((key) => share(figures[key], QUOTAS[key])).join(' | ')} |`;
  });
  const total = templates.reduce((sum, entry) => sum + count(entry.template.Resources), 0);
  return [
    `## ${title}`,
    '',
    `| template | ${keys.join(' | ')} |`,
    `| --- | ${keys.map(() => '---:').join(' | ')} |`,
    ...rows,
    '',
    `Resources of the whole tree: ${share(total, TREE_RESOURCES)} of ${TREE_RESOURCES} per operation.`,
    '',
  ].join('\n');
}

beforeAll(() => {
  projectRoot = placeholderProject(DOUBLED.map((route) => route.name));
  stackTemplates = synthesize(projectRoot, {}, { asDeployed: true }).templates;
  doubledTemplates = synthesize(projectRoot, {}, { asDeployed: true, routes: DOUBLED }).templates;
  const report = [
    '# CloudFormation quotas per template (share of the quota)',
    '',
    table(`The stack: ${routes.length} operations`, stackTemplates),
    table(`The route table doubled: ${DOUBLED.length} operations`, doubledTemplates),
  ].join('\n');
  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, report);
  console.log(report);
}, SYNTH_TIMEOUT_MS);

afterAll(() => {
  if (projectRoot) rmSync(projectRoot, { recursive: true, force: true });
});

/** Every figure of every template above 60% of its quota, and the tree's resources above 60% of theirs. */
function overShare(templates: readonly SynthesizedTemplate[]): string[] {
  const over = templates.flatMap((entry) => {
    const figures = figuresOf(entry);
    return (Object.keys(QUOTAS) as Array<keyof typeof QUOTAS>)
      .filter((key) => figures[key] > SHARE * QUOTAS[key])
      .map((key) => `${entry.path}: ${key} ${figures[key]} of ${QUOTAS[key]}`);
  });
  const total = templates.reduce((sum, entry) => sum + count(entry.template.Resources), 0);
  return total > SHARE * TREE_RESOURCES ? [...over, `the tree: ${total} resources of ${TREE_RESOURCES}`] : over;
}

const apiRoutes = (templates: readonly SynthesizedTemplate[]) =>
  templates.flatMap((entry) => Object.values(entry.template.Resources)).filter((resource) => resource.Type === 'AWS::ApiGatewayV2::Route');

describe('CloudFormation quotas', () => {
  it('keeps every template of the stack within 60% of each quota', () => {
    expect(stackTemplates.length).toBeGreaterThan(1);
    expect(overShare(stackTemplates)).toEqual([]);
  });

  it('has room for twice the route table: with every route cloned in its tag, every template is still within 60%', () => {
    // The clones are really there: twice the routes (and the one $default route), in as many templates.
    expect(apiRoutes(doubledTemplates)).toHaveLength(2 * (apiRoutes(stackTemplates).length - 1) + 1);
    expect(doubledTemplates.map((entry) => entry.path)).toEqual(stackTemplates.map((entry) => entry.path));
    expect(overShare(doubledTemplates)).toEqual([]);
  });

  it('keeps the root free of the routes: it does not grow with the route table', () => {
    const root = (templates: readonly SynthesizedTemplate[]) => figuresOf(templates[0]);
    expect(root(doubledTemplates).resources).toBe(root(stackTemplates).resources);
    expect(root(doubledTemplates).outputs).toBe(root(stackTemplates).outputs);
  });
});
