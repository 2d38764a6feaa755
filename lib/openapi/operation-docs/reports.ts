/** The report routes: create, poll, download, and the e-mailed link. */
import type { OperationNameOf } from '../../routes';
import { EMAILED_REPORTS_PER_HOUR, MAX_RECIPIENTS } from '../../reports/recipients';
import * as responses from '../../schemas/responses';
import { RECIPIENTS_PATTERN } from '../parameters';
import { location, type OperationDoc, type ResponseDoc } from './shared';

const EMAIL_LIMIT = `A caller (the token's subject) may ask for at most ${EMAILED_REPORTS_PER_HOUR} e-mailed reports an hour; more: 429 \`too-many-requests\` with \`Retry-After\`. Reports without \`email\` are not counted.`;

const reportEmail: Pick<OperationDoc, 'parameters' | 'parameterSchemas' | 'parameterExamples' | 'problems'> = {
  parameters: {
    email: `1–${MAX_RECIPIENTS} comma-separated e-mail addresses to send the CSV to when it is complete, each in a domain the deployment allows (\`REPORT_EMAIL_DOMAINS\`; without it, none: 400).`,
  },
  parameterSchemas: { email: { pattern: RECIPIENTS_PATTERN } },
  parameterExamples: { email: 'reports@example.com' },
  // At most EMAILED_REPORTS_PER_HOUR reports with `email` per caller an hour (lib/reports/email-allowance.ts counts them).
  problems: ['too-many-requests'],
};

const report = (type: string) =>
  ({
    description: `The report job (${type}); poll its \`Location\` until \`status\` is \`complete\` or \`failed\`.`,
    schema: responses.report,
    headers: { Location: location('report') },
  }) satisfies ResponseDoc;

const getReport = {
  description: 'When the report is complete, `row_count` is set and `download_url` is a link (valid 15 minutes) to the CSV.',
  responses: { 200: { description: 'The report.', schema: responses.report } },
  problems: ['not-found'],
} satisfies OperationDoc;

const downloadReport = {
  description:
    'The link carries its own signature: a client that repeats `Authorization` on the redirect (Postman/newman, Prism, ' +
    'Python\'s urllib) is refused by S3 (400 "Only one auth mechanism allowed"). Such clients ask with `redirect=false` and ' +
    'fetch `download_url` without the header.',
  parameterExamples: { redirect: 'false' },
  parameters: {
    redirect:
      '`false`: answer 200 with the link as JSON instead of the 303 (for clients that repeat `Authorization` on redirects). Default `true`.',
  },
  responses: {
    200: {
      description: 'With `redirect=false`: the link to the CSV (valid 15 minutes) and when it expires.',
      schema: responses.reportDownload,
    },
    303: {
      description: 'See the CSV at `Location` (a link valid 15 minutes). Follow it without the `Authorization` header.',
      headers: { Location: { description: 'The CSV.', required: true } },
    },
  },
  problems: ['not-found', 'report-not-ready'],
} satisfies OperationDoc;

export const reportDocs = {
  createDepartmentsReport: {
    description: `One CSV row per department, with its usage and limits. Create → poll → download. ${EMAIL_LIMIT}`,
    responses: { 202: report('departments') },
    ...reportEmail,
  },
  getDepartmentsReport: { ...getReport, parameterExamples: { report_id: 'r-departments-example' } },
  downloadDepartmentsReport: {
    ...downloadReport,
    parameterExamples: { ...downloadReport.parameterExamples, report_id: 'r-departments-example' },
  },
  createGroupsReport: {
    description: `One CSV row per group and member (a group with no users has one row with the user cells empty). Create → poll → download. ${EMAIL_LIMIT}`,
    responses: { 202: report('groups') },
    ...reportEmail,
  },
  getGroupsReport: { ...getReport, parameterExamples: { report_id: 'r-groups-example' } },
  downloadGroupsReport: { ...downloadReport, parameterExamples: { ...downloadReport.parameterExamples, report_id: 'r-groups-example' } },
  downloadEmailedReport: {
    description:
      'The link a report e-mail carries when the CSV is too large to attach; it needs no token (its secret is in `token`) and works until the date the e-mail states (7 days). ' +
      'A wrong, tampered or expired `token`, or an unknown report, is 404 alike.',
    parameters: { token: 'The secret of the e-mailed link, as the e-mail gives it.' },
    parameterExamples: { report_id: 'r-departments-example', token: 'x0Qy1dVh2l5pQm3rT8kz6bWf9nJc4sA7eGu0oLi2Hd8' },
    responses: {
      303: {
        description: 'See the CSV at `Location` (a link valid 5 minutes).',
        headers: { Location: { description: 'The CSV.', required: true } },
      },
    },
    problems: ['not-found'],
  },
} satisfies Record<OperationNameOf<'Reports'>, OperationDoc>;
