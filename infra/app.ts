/**
 * CDK entry point (`npx cdk synth`, see cdk.json). Settings come from context;
 * none is required, so a synth works offline with no context at all.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackPropsFromContext } from './context';
import { DeptAdminStack } from './stack';

const app = new App();
new DeptAdminStack(app, 'DeptAdminStack', {
  ...stackPropsFromContext(app.node),
  description: 'Department and group administration API',
  // No `env`: the template is environment-agnostic, so synth needs no AWS
  // account and the same template deploys to any account and region.
});
// cdk-nag's AwsSolutions pack: synth fails on a finding that is neither fixed nor acknowledged (infra/nag.ts).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
