import { operation } from '../lib/http/operation';
import { getReport } from '../lib/reports/jobs';
import { reportIdParams } from '../lib/schemas/reports';

/** The status of a departments report, with a fresh download link once complete. */
export const handler = operation('getDepartmentsReport', { params: reportIdParams }, async ({ params }) => ({
  body: await getReport('departments', params.report_id),
}));
