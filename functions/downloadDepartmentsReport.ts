import { operation } from '../lib/http/operation';
import { reportDownloadUrl } from '../lib/reports/jobs';
import { reportIdParams } from '../lib/schemas/reports';

/** 303 to a 15-minute link to the departments report's CSV; 409 `report-not-ready` before it is complete. */
export const handler = operation('downloadDepartmentsReport', { params: reportIdParams }, async ({ params }) => ({
  status: 303,
  headers: { location: await reportDownloadUrl('departments', params.report_id) },
}));
