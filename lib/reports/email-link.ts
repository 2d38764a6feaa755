/**
 * The link a report e-mail carries when the CSV is too large to attach. A pre-signed S3 URL made by the worker
 * would stop working with the worker's temporary credentials (hours), long before the date the e-mail states.
 * So the e-mail links to a route of the service, `GET /v2/reports/{id}/email-download?token=<secret>`, which
 * needs no Authorization (a mail reader has none) and answers 303 to a freshly pre-signed URL of a few minutes.
 *
 * The secret is 32 random bytes made when the e-mail is prepared; the report keeps only its SHA-256 and the
 * link's expiry. An unknown report, a wrong or tampered secret and an expired link are one answer, 404
 * `not-found`: it says nothing about which, nor whether the report exists.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { Problem } from '../problems';
import { findReportEmailLink, setReportEmailLink } from '../store/reports';
import { downloadUrl, type StoredReport } from './jobs';

/** How long the e-mailed link works; the e-mail says until when. The bucket keeps reports longer (infra/storage.ts). */
export const EMAIL_LINK_DAYS = 7;
const EMAIL_LINK_MS = EMAIL_LINK_DAYS * 24 * 3600 * 1000;
/** The pre-signed URL the route redirects to: long enough to start the download, no longer. */
export const EMAIL_REDIRECT_SECONDS = 5 * 60;

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

export const emailDownloadPath = (id: string) => `/v2/reports/${id}/email-download`;

export interface EmailLink {
  url: string;
  expiresAt: Date;
}

/** Makes the e-mailed link of a complete report: a new secret, whose hash and expiry the report keeps. */
export async function prepareEmailLink(report: StoredReport, now = Date.now()): Promise<EmailLink> {
  const base = config().apiBaseUrl;
  if (!base) throw new Error('API_BASE_URL is not set: the e-mail has nowhere to link to');
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + EMAIL_LINK_MS);
  await setReportEmailLink(report.id, sha256(secret).toString('hex'), expiresAt.toISOString());
  return { url: `${base}${emailDownloadPath(report.id)}?token=${secret}`, expiresAt };
}

/** Where the e-mailed link of report `id` leads now: a pre-signed URL of the CSV; 404 unless `token` is its live secret. */
export async function emailedReportLocation(id: string, token: string, now = Date.now()): Promise<string> {
  const link = await findReportEmailLink(id);
  const presented = sha256(token);
  const stored = Buffer.from(link?.secretHash ?? '', 'hex');
  // Compared in constant time: how long the check takes says nothing about how much of the secret was right.
  const valid = link !== undefined && stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!valid || now >= Date.parse(link.expiresAt)) {
    throw new Problem('not-found', 'This report link is not valid, or it has expired; ask for the report again.');
  }
  return downloadUrl(link.report, EMAIL_REDIRECT_SECONDS);
}
