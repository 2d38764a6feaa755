/**
 * The stack synthesized for the infra tests, as `cdk synth` makes it, with
 * bundling skipped (`aws:cdk:bundling-stacks: []`). NodejsFunction still
 * insists that each entry file exists and lies under the project root, so the
 * stack is pointed at a throw-away project root holding one placeholder per
 * handler. The feature flags are those of cdk.json; with `asDeployed`, the
 * metadata `cdk synth` adds too (construct paths, asset paths, the CDK's
 * version reporting), so that template sizes and counts are those deployed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { stackPropsFromContext } from '../../infra/context';
import { DeptAdminStack, REPOSITORY_ROOT, type DeptAdminStackProps } from '../../infra/stack';
import { flattenTemplates, synthesizedTemplates, type SynthesizedTemplate } from '../../infra/templates';
import { backgroundFunctions } from '../../lib/background';
import { routes } from '../../lib/routes';

const cdkJsonContext = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'cdk.json'), 'utf8')).context;

/** What `cdk synth` sets besides cdk.json: each construct's path, each asset's, and the CDK::Metadata resource. */
const CLI_METADATA = {
  'aws:cdk:enable-path-metadata': true,
  'aws:cdk:enable-asset-metadata': true,
  'aws:cdk:version-reporting': true,
};

/**
 * A project root with a placeholder for every module of functions/ (the routes', the background functions' and
 * any other, such as the SCIM authorizer), and for `extraHandlers`.
 */
export function placeholderProject(extraHandlers: readonly string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'dept-admin-stack-test-'));
  mkdirSync(join(root, 'functions'));
  const modules = readdirSync(join(REPOSITORY_ROOT, 'functions'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -3));
  for (const handler of new Set([
    ...routes.map((route) => route.name),
    ...backgroundFunctions.map((fn) => fn.handler),
    ...modules,
    ...extraHandlers,
  ])) {
    writeFileSync(join(root, 'functions', `${handler}.ts`), 'export const handler = async () => ({ statusCode: 200 });\n');
  }
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  return root;
}

export interface Synthesized {
  stack: DeptAdminStack;
  /** The root template and every nested one, as written to the cloud assembly. */
  templates: SynthesizedTemplate[];
  /** All of them as one template, references across templates followed (infra/templates.ts). */
  template: Template;
}

export function synthesize(
  projectRoot: string,
  context: Record<string, unknown> = {},
  { asDeployed = false, ...props }: Partial<DeptAdminStackProps> & { asDeployed?: boolean } = {},
): Synthesized {
  const app = new App({ context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [], ...(asDeployed ? CLI_METADATA : {}), ...context } });
  const stack = new DeptAdminStack(app, 'DeptAdminStack', { ...stackPropsFromContext(app.node), projectRoot, ...props });
  const templates = synthesizedTemplates(stack, app.synth().directory);
  // The flat view's DependsOn may name the nested stacks it leaves out: no dependency check.
  const template = Template.fromJSON(flattenTemplates(templates), { skipCyclicalDependenciesCheck: true });
  return { stack, templates, template };
}
