import { operation } from '../lib/http/operation';
import { getReport } from '../lib/reports/jobs';
import { reportIdParams } from '../lib/schemas/reports';

/** The status of a groups report, with a fresh download link once complete. */
export const handler = operation('getGroupsReport', { params: reportIdParams }, async ({ params }) => ({
  body: await getReport('groups', params.report_id),
}));
