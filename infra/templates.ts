/**
 * The synthesized templates of the stack as CloudFormation receives them: the
 * root's and each nested stack's (infra/route-stack.ts), read from the cloud
 * assembly, and one flat view of all of them for whatever reads the
 * deployment as a whole (the local runner, the tests).
 *
 * Across templates, CDK wires references through CloudFormation: a nested
 * template names a resource of its parent by a parameter (`Ref` to a
 * parameter the parent's AWS::CloudFormation::Stack resource fills in), and a
 * parent names one of a nested stack by `Fn::GetAtt [<stack>, Outputs.<name>]`.
 * The flat view follows both to the resource itself, so a function of a nested
 * stack reads `TABLE_NAME: { Ref: <the table> }` as if it were one template.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack, type Stack } from 'aws-cdk-lib';

type CfnValue = unknown;

export interface CfnResource {
  Type: string;
  Properties?: Record<string, CfnValue>;
  Metadata?: Record<string, CfnValue>;
  DependsOn?: string | string[];
}

export interface CfnTemplate {
  Parameters?: Record<string, { Type: string; Default?: CfnValue }>;
  Mappings?: Record<string, CfnValue>;
  Conditions?: Record<string, CfnValue>;
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: CfnValue; Description?: string }>;
}

/** One template of the synthesized tree. */
export interface SynthesizedTemplate {
  /** The stack's construct path: `DeptAdminStack`, `DeptAdminStack/UsersRoutes`. */
  path: string;
  template: CfnTemplate;
  /** The template file's size, as `cdk deploy` uploads it. */
  bytes: number;
  /** A nested stack's parent (its construct path) and the logical id of its AWS::CloudFormation::Stack resource there. */
  parent?: { path: string; logicalId: string };
}

const NESTED_STACK = 'AWS::CloudFormation::Stack';
/** What `cdk deploy` adds to every template for the CDK's version reporting: no part of the service. */
const CDK_METADATA = 'AWS::CDK::Metadata';

/** Every template of `stack`'s tree (the root first, each nested stack after its parent) from a synthesized assembly. */
export function synthesizedTemplates(stack: Stack, assemblyDirectory: string): SynthesizedTemplate[] {
  const read = (of: Stack) => {
    const text = readFileSync(join(assemblyDirectory, of.templateFile), 'utf8');
    return { path: of.node.path, template: JSON.parse(text) as CfnTemplate, bytes: Buffer.byteLength(text) };
  };
  const nested = stack.node.findAll().filter((node): node is NestedStack => NestedStack.isNestedStack(node));
  return [
    read(stack),
    ...nested.map((child) => {
      const parent = child.nestedStackParent!;
      return { ...read(child), parent: { path: parent.node.path, logicalId: parent.getLogicalId(child.nestedStackResource!) } };
    }),
  ];
}

/**
 * All resources of the tree in one template, every reference across templates followed to what it names. The
 * nested stacks' own AWS::CloudFormation::Stack resources are left out (they are the wiring, not what is deployed),
 * and so is the CDK's version-reporting resource of each template.
 * Logical ids are unique per template only; two templates holding one id is an error here (the flat view would be
 * ambiguous), which the stack avoids by giving each construct of a nested stack a name unique in the app.
 */
export function flattenTemplates(templates: readonly SynthesizedTemplate[]): CfnTemplate {
  const byPath = new Map(templates.map((entry) => [entry.path, entry]));
  const childAt = (path: string, logicalId: string) =>
    templates.find((entry) => entry.parent?.path === path && entry.parent.logicalId === logicalId);

  const resolveIn = (entry: SynthesizedTemplate, value: CfnValue): CfnValue => {
    if (Array.isArray(value)) return value.map((item) => resolveIn(entry, item));
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, CfnValue>;
    const keys = Object.keys(object);
    if (keys.length === 1 && keys[0] === 'Ref' && typeof object.Ref === 'string' && entry.parent) {
      const name = object.Ref;
      if (entry.template.Parameters?.[name]) {
        const parent = byPath.get(entry.parent.path)!;
        const given = (parent.template.Resources[entry.parent.logicalId].Properties?.Parameters as Record<string, CfnValue> | undefined)?.[
          name
        ];
        if (given === undefined) throw new Error(`${entry.path}: its parent gives no value for the parameter ${name}`);
        return resolveIn(parent, given);
      }
    }
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const argument = object['Fn::GetAtt'];
      const [id, ...attribute] = Array.isArray(argument) ? (argument as string[]) : String(argument).split('.');
      const name = attribute.join('.');
      if (entry.template.Resources[id]?.Type === NESTED_STACK && name.startsWith('Outputs.')) {
        const child = childAt(entry.path, id);
        const output = child?.template.Outputs?.[name.slice('Outputs.'.length)];
        if (!child || !output) throw new Error(`${entry.path}: ${id} has no output ${name}`);
        return resolveIn(child, output.Value);
      }
    }
    return Object.fromEntries(keys.map((key) => [key, resolveIn(entry, object[key])]));
  };

  const resources: Record<string, CfnResource> = {};
  const homes: Record<string, string> = {};
  for (const entry of templates) {
    for (const [logicalId, resource] of Object.entries(entry.template.Resources)) {
      if (resource.Type === NESTED_STACK || resource.Type === CDK_METADATA) continue;
      if (logicalId in resources)
        throw new Error(
          `${logicalId} is in two templates (${homes[logicalId]} and ${entry.path}): give its construct a name unique in the app`,
        );
      resources[logicalId] = resolveIn(entry, resource) as CfnResource;
      homes[logicalId] = entry.path;
    }
  }
  const root = templates[0];
  return { Resources: resources, Outputs: resolveIn(root, root.template.Outputs ?? {}) as CfnTemplate['Outputs'] };
}
