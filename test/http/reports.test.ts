/** E9 and G8 end to end through HTTP: 202, polling, the CSV row by row, the 303 download and the e-mail. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { claimReport, createReport, finishReport } from '../../lib/reports/jobs';
import { useApi } from '../support/api';
import { TEST_CONTEXT } from '../support/functions';
import { unique } from '../support/fixtures';

const api = useApi();

const ctx = { actor: 'test', operationId: 'E9', requestId: 'test' };

/**
 * An SES that refuses every message, as SES does an unverified address: the e-mail step's failure, given to the
 * ReportWorker as its SES endpoint (its bundle has its own client; nothing in this process reaches it).
 */
let refusingSes: Server;
beforeAll(async () => {
  refusingSes = createServer((request, response) => {
    request.resume();
    response.writeHead(400, { 'content-type': 'text/xml' });
    response.end(
      '<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type>' +
        '<Code>MessageRejected</Code><Message>Email address is not verified.</Message></Error><RequestId>local</RequestId></ErrorResponse>',
    );
  });
  await new Promise<void>((listening) => refusingSes.listen(0, '127.0.0.1', listening));
});
afterAll(() => new Promise<void>((closed) => refusingSes.close(() => closed())));

/** The stack's setting of report e-mail domains (a redeploy: on AWS it is the synth's context). */
const deployWithEmailDomains = (domains: string | undefined) =>
  api.redeploy({ context: domains === undefined ? {} : { reportEmailDomains: domains } });

afterEach(async () => {
  // Back to the tests' deployment: any domain, the SES stand-in.
  await api.redeploy({ context: TEST_CONTEXT, endpointsFor: undefined });
});

async function untilFinished(location: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await api.get(location);
    expect(response.status).toBe(200);
    const done = ['complete', 'failed'].includes(response.body.status);
    if (done && (response.body.email === null || response.body.email.status !== 'pending')) return response.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${location} did not finish`);
}

/** The CSV behind a complete report, fetched through the 303 of /download. */
async function downloadCsv(location: string): Promise<string> {
  const redirect = await api.get(`${location}/download`);
  expect(redirect.status).toBe(303);
  const link = redirect.headers.get('location')!;
  expect(link).toContain('X-Amz-Expires=900');
  const file = await fetch(link);
  expect(file.status).toBe(200);
  return file.text();
}

/** RFC 4180 rows (enough of a parser for the test: quotes, doubled quotes, commas and CRLF inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') (row.push(cell), (cell = ''));
    else if (char === '\r' && text[i + 1] === '\n') (row.push(cell), rows.push(row), (row = []), (cell = ''), i++);
    else cell += char;
  }
  if (cell !== '' || row.length > 0) (row.push(cell), rows.push(row));
  return rows;
}

async function sesInbox(): Promise<
  Array<{
    subject: string;
    body: { text?: string };
    destination: { to: string[] };
    attachments: Array<{ filename: string; content: string }>;
  }>
> {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  return ((await response.json()) as { emails: never[] }).emails;
}

describe('E9 POST /v2/departments/exports', () => {
  it('answers 202 with the job and a Location, completes, and serves the CSV with formulas neutralised', async () => {
    const formula = await api.post('/v2/departments', { id: unique('d'), name: '=HYPERLINK("http://evil")' });
    const plain = await api.post('/v2/departments', { id: unique('d'), name: 'Plain, "quoted"' });
    await api.put(`/v2/departments/${plain.body.id}/quotas`, { name: 'admins', limit: 4 });
    const user = await api.post('/v2/users', {
      id: unique('u'),
      email: `${unique('e')}@example.com`,
      last_name: 'X',
      account_role: 'admin',
    });
    await api.post(`/v2/departments/${plain.body.id}/users/${user.body.id}`);

    const created = await api.post('/v2/departments/exports');
    expect(created.status, created.text).toBe(202);
    expect(created.body).toMatchObject({
      type: 'departments',
      status: 'pending',
      completed_at: null,
      row_count: null,
      download_url: null,
      email: null,
    });
    const location = created.headers.get('location')!;
    expect(location).toBe(`/v2/departments/exports/${created.body.id}`);

    const report = await untilFinished(location);
    expect(report.status).toBe('complete');
    expect(report.download_url).toMatch(/^http/);
    const rows = parseCsv(await downloadCsv(location));
    expect(rows[0]).toEqual([
      'department_id',
      'name',
      'user_count',
      'activated_users',
      'admins',
      'managers',
      'guests',
      'users_limit',
      'activated_users_limit',
      'admins_limit',
      'managers_limit',
      'guests_limit',
      'seats_limit',
      'created_at',
    ]);
    expect(rows).toHaveLength(report.row_count + 1);
    const byId = new Map(rows.slice(1).map((row) => [row[0], row]));
    expect(byId.get(formula.body.id)!.slice(0, 3)).toEqual([formula.body.id, `'=HYPERLINK("http://evil")`, '0']);
    expect(byId.get(plain.body.id)).toEqual([
      plain.body.id,
      'Plain, "quoted"',
      '1',
      '0',
      '1',
      '0',
      '0',
      '',
      '',
      '4',
      '',
      '',
      '',
      plain.body.created_at,
    ]);
  });

  it('e-mails the CSV as an attachment to every recipient and marks the e-mail sent', async () => {
    const accented = await api.post('/v2/departments', { id: unique('d'), name: 'Zürich Ops – Ærø ✓' });
    expect(accented.status, accented.text).toBe(201);
    const [a, b] = [`${unique('a')}@example.com`, `${unique('b')}@example.org`];
    const created = await api.post(`/v2/departments/exports?email=${a},${b}`);
    expect(created.status, created.text).toBe(202);
    expect(created.body.email).toEqual({ recipients: [a, b], status: 'pending' });
    const report = await untilFinished(created.headers.get('location')!);
    expect(report).toMatchObject({ status: 'complete', email: { recipients: [a, b], status: 'sent' } });
    const mail = (await sesInbox()).find((m) => m.destination.to.join(',').includes(a));
    expect(mail, 'message in the local SES inbox').toBeDefined();
    expect(mail!.destination.to.join(',')).toContain(b);
    expect(mail!.attachments).toHaveLength(1);
    const departments = report.row_count.toLocaleString('en-US'); // one row per department
    expect(mail!.subject).toMatch(new RegExp(`^Departments report: ${departments} departments?, (none|[\\d,]+) at a quota limit$`));
    expect(mail!.body.text).toContain(`${departments} department`);
    expect(mail!.body.text).toContain(`The CSV is attached (${departments} row`);
    expect(mail!.attachments[0].filename).toBe(`departments-report-${report.id}.csv`);
    const csv = Buffer.from(mail!.attachments[0].content, 'base64').toString('utf8');
    expect(csv).toContain('department_id,name,user_count');
    expect(csv, 'UTF-8 survives the MIME encoding').toContain('Zürich Ops – Ærø ✓');
  });

  it('keeps the report complete and downloadable when SES refuses the message', async () => {
    const { port } = refusingSes.address() as AddressInfo;
    await api.redeploy({ endpointsFor: async () => ({ ...inject('services').endpoints, ses: `http://127.0.0.1:${port}` }) });
    const created = await api.post(`/v2/departments/exports?email=${unique('x')}@example.com`);
    const report = await untilFinished(created.headers.get('location')!);
    expect(report).toMatchObject({ status: 'complete', email: { status: 'failed' } });
    expect(parseCsv(await downloadCsv(created.headers.get('location')!))[0][0]).toBe('department_id');
  });

  it.each([
    ['not an address', 'not-an-email'],
    ['an empty list', ''],
    ['eleven addresses', Array.from({ length: 11 }, (_, i) => `r${i}@example.com`).join(',')],
    ['a header injection', encodeURIComponent('a@example.com\r\nBcc: victim@example.com')],
    ['a display name', encodeURIComponent('Ada <ada@example.com>')],
  ])('answers 400 for %s and starts nothing', async (_, email) => {
    const response = await api.post(`/v2/departments/exports?email=${email}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: '/problems/validation', errors: [{ field: 'email' }] });
  });

  it('e-mails no one from a stack deployed without reportEmailDomains (the variable empty): 400 naming it, and no job', async () => {
    await deployWithEmailDomains(undefined);
    const before = (await api.get('/v2/audit?count=1')).body.entries[0]?.id;
    for (const type of ['departments', 'groups']) {
      const response = await api.post(`/v2/${type}/exports?email=it@example.com`);
      expect(response.status, response.text).toBe(400);
      expect(response.body).toMatchObject({ type: '/problems/validation', errors: [{ field: 'email' }] });
      expect(response.body.errors[0].message).toContain('REPORT_EMAIL_DOMAINS');
    }
    expect((await api.get('/v2/audit?count=1')).body.entries[0]?.id, 'no report was created').toBe(before);
    // A report without e-mail is not affected.
    expect((await api.post('/v2/departments/exports')).status).toBe(202);
  });

  it('e-mails any domain with REPORT_EMAIL_DOMAINS=*, lower-casing the domains', async () => {
    await deployWithEmailDomains('*');
    const response = await api.post('/v2/departments/exports?email=Ops@Anywhere.Example,x@elsewhere.org');
    expect(response.status, response.text).toBe(202);
    expect(response.body.email.recipients).toEqual(['Ops@anywhere.example', 'x@elsewhere.org']);
  });

  it('answers 400 for an address outside REPORT_EMAIL_DOMAINS', async () => {
    await deployWithEmailDomains('example.com');
    expect((await api.post('/v2/departments/exports?email=ok@example.com')).status).toBe(202);
    const response = await api.post('/v2/departments/exports?email=ok@example.com,no@elsewhere.org');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toContain('no@elsewhere.org');
  });

  it('answers ?redirect=false with the link as JSON, which works without the Authorization header', async () => {
    for (const type of ['departments', 'groups'] as const) {
      const created = await api.post(`/v2/${type}/exports`);
      const location = created.headers.get('location')!;
      expect((await untilFinished(location)).status).toBe('complete');
      const before = Date.now();
      const response = await api.get(`${location}/download?redirect=false`);
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      expect(Object.keys(response.body).sort()).toEqual(['download_url', 'expires_at']);
      const link = new URL(response.body.download_url);
      // expires_at is the signature's own expiry: X-Amz-Date plus X-Amz-Expires (15 minutes).
      const signed = link.searchParams
        .get('X-Amz-Date')!
        .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6.000Z');
      expect(link.searchParams.get('X-Amz-Expires')).toBe('900');
      expect(response.body.expires_at).toBe(new Date(Date.parse(signed) + 900_000).toISOString());
      expect(Date.parse(response.body.expires_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
      const file = await fetch(link);
      expect(file.status).toBe(200);
      expect((await file.text()).split('\r\n')[0]).toMatch(type === 'departments' ? /^department_id,/ : /^group_id,/);
      // redirect=true is the default: the 303.
      expect((await api.get(`${location}/download?redirect=true`)).status).toBe(303);
    }
    const bad = await api.get('/v2/departments/exports/nope/download?redirect=no');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'redirect', message: 'must be true or false' }]);
  });

  it('answers 409 report-not-ready before completion, and 404 for unknown reports or the other type', async () => {
    const report = await createReport(ctx, 'departments', null);
    const claimed = (await claimReport(report.id))!; // running, so the background worker leaves it alone
    const download = await api.get(`/v2/departments/exports/${report.id}/download`);
    expect(download.status).toBe(409);
    expect(download.body.type).toBe('/problems/report-not-ready');
    expect((await api.get(`/v2/departments/exports/${report.id}/download?redirect=false`)).body.type).toBe('/problems/report-not-ready');
    expect((await api.get(`/v2/departments/exports/${report.id}`)).body).toMatchObject({ status: 'running', download_url: null });
    await finishReport(claimed, { error: 'test' });
    expect((await api.get(`/v2/departments/exports/${report.id}`)).body.status).toBe('failed');

    expect((await api.get('/v2/departments/exports/nope')).status).toBe(404);
    expect((await api.get(`/v2/groups/exports/${report.id}`)).status).toBe(404);
    expect((await api.get(`/v2/groups/exports/${report.id}/download`)).status).toBe(404);
  });
});

describe('G8 POST /v2/groups/exports', () => {
  it('writes one row per group and member, and one row with empty user cells for an empty group', async () => {
    const users = [];
    for (const last of ['Zed', 'adams', '+Plus']) {
      const id = unique('u');
      users.push((await api.post('/v2/users', { id, email: `${id}@example.com`, first_name: 'F', last_name: last })).body);
    }
    const full = await api.post('/v2/groups', {
      id: unique('g'),
      name: unique('Full '),
      description: '@risky',
      user_ids: users.map((u) => u.id),
    });
    expect(full.status, full.text).toBe(201);
    const empty = await api.post('/v2/groups', { id: unique('g'), name: unique('Empty ') });
    expect(empty.status, empty.text).toBe(201);

    const created = await api.post('/v2/groups/exports');
    expect(created.status).toBe(202);
    expect(created.headers.get('location')).toBe(`/v2/groups/exports/${created.body.id}`);
    const report = await untilFinished(created.headers.get('location')!);
    expect(report.status).toBe('complete');
    const rows = parseCsv(await downloadCsv(created.headers.get('location')!));
    expect(rows[0]).toEqual(['group_id', 'group_name', 'group_description', 'user_id', 'email', 'first_name', 'last_name', 'account_role']);
    expect(rows).toHaveLength(report.row_count + 1);
    const fullRows = rows.filter((row) => row[0] === full.body.id);
    // Members by last name, case-insensitively, then id; formula-like cells neutralised.
    expect(fullRows.map((row) => row[6])).toEqual([`'+Plus`, 'adams', 'Zed']);
    expect(fullRows[0].slice(1, 3)).toEqual([full.body.name, `'@risky`]);
    expect(rows.filter((row) => row[0] === empty.body.id)).toEqual([[empty.body.id, empty.body.name, '', '', '', '', '', '']]);
  });
});
