import { operation } from '../lib/http/operation';
import { createReport, reportPath } from '../lib/reports/jobs';
import { allowedRecipients } from '../lib/reports/recipients';
import { createReportQuery } from '../lib/schemas/reports';

/** Start a departments report (CSV); answers 202 with the job to poll. */
export const handler = operation('createDepartmentsReport', { query: createReportQuery }, async ({ query, ctx }) => {
  const report = await createReport(ctx, 'departments', allowedRecipients(query.email));
  return { status: 202, body: report, headers: { location: reportPath('departments', report.id) } };
});
