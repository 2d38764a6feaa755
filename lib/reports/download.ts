/**
 * What `/download` answers (API.md "Reports"): 303 to the pre-signed link,
 * or with `?redirect=false` 200 `{download_url, expires_at}`, for clients
 * that repeat `Authorization` on a redirect (S3 refuses a request that
 * carries both that header and a signed query string).
 */
import type { Reply } from '../http/response';
import { reportDownload } from './jobs';
import type { ReportType } from '../schemas/enums';

export async function downloadReply(type: ReportType, id: string, redirect: 'true' | 'false' | undefined): Promise<Reply> {
  const download = await reportDownload(type, id);
  if (redirect === 'false') return { body: download };
  return { status: 303, headers: { location: download.download_url } };
}
