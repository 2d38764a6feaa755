import { operation } from '../lib/http/operation';
import { createReport, reportPath } from '../lib/reports/jobs';
import { allowedRecipients } from '../lib/reports/recipients';
import { createReportQuery } from '../lib/schemas/reports';

/** Start a groups report (CSV); answers 202 with the job to poll. */
export const handler = operation('createGroupsReport', { query: createReportQuery }, async ({ query, ctx }) => {
  const report = await createReport(ctx, 'groups', allowedRecipients(query.email));
  return { status: 202, body: report, headers: { location: reportPath('groups', report.id) } };
});
