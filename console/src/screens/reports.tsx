/**
 * Reports (E9, G8): start a departments or groups report, optionally e-mailed; its progress, polled from its status
 * and announced; when complete, the download link the status carries. The report being watched is in the query
 * (`?type=groups&report=r1`), so a reload or a shared link keeps following it.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';
import { api, type Schemas } from '../api';
import { asyncHandler } from '../components/async-handler';
import { ScreenTitle, Time } from '../components/parts';
import { listHref, useQueryParams } from '../components/list-params';
import { asProblem, unreachable, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

type ReportType = Schemas['Report']['type'];

/** How often the status is read while the report is made (each read is one small item). */
const POLL_MS = 1000;

const TYPE_NAMES: Record<ReportType, string> = { departments: 'Departments', groups: 'Groups' };

const STATUS_SENTENCES: Record<Schemas['Report']['status'], string> = {
  pending: 'waiting to start…',
  running: 'being made…',
  complete: 'complete.',
  failed: 'failed: it could not be made. Start another one.',
};

const reportHref = (type: ReportType, id: string) => listHref('/reports', { type, report: id });

function StartReport() {
  const [, navigate] = useLocation();
  const [type, setType] = useState<ReportType>('departments');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<Problem>();
  return (
    <form
      onSubmit={asyncHandler(
        async (event) => {
          event.preventDefault();
          setProblem(undefined);
          const options = { params: { query: email.trim() ? { email: email.trim() } : {} } };
          const { data, error, response } =
            type === 'departments' ? await api.POST('/v2/departments/exports', options) : await api.POST('/v2/groups/exports', options);
          if (error || !data) return setProblem(asProblem(error, response));
          navigate(reportHref(data.type, data.id));
        },
        (error) => setProblem(unreachable(error)),
      )}
    >
      <fieldset>
        <legend>Report of</legend>
        {(['departments', 'groups'] as const).map((value) => (
          <label key={value} class="choice">
            <input type="radio" name="report-type" value={value} checked={type === value} onChange={() => setType(value)} />{' '}
            {value === 'departments' ? 'Departments, with their usage and limits' : 'Groups, one row per member'}
          </label>
        ))}
      </fieldset>
      <label for="report-email">E-mail it to (optional; up to 10 addresses, separated by commas)</label>
      <input
        id="report-email"
        type="text"
        inputMode="email"
        autoComplete="email"
        value={email}
        onInput={(event) => setEmail(event.currentTarget.value)}
      />
      <div class="actions">
        <button type="submit" class="primary">
          Start the report
        </button>
      </div>
      <ProblemMessage problem={problem} />
    </form>
  );
}

function useReport(type: ReportType, id: string) {
  const report = useRequest(
    () =>
      type === 'groups'
        ? api.GET('/v2/groups/exports/{report_id}', { params: { path: { report_id: id } } })
        : api.GET('/v2/departments/exports/{report_id}', { params: { path: { report_id: id } } }),
    [type, id],
  );
  const status = report.data?.status;
  const emailPending = report.data?.email?.status === 'pending';
  // Read again until the report is done and its e-mail, if any, is sent or failed.
  const unfinished = status === 'pending' || status === 'running' || (status !== undefined && emailPending);
  useEffect(() => {
    if (!unfinished || report.loading) return;
    const timer = setTimeout(report.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [unfinished, report.loading, report.data, report.reload]);
  return report;
}

function ReportProgress({ type, id }: { type: ReportType; id: string }) {
  const report = useReport(type, id);
  const data = report.data;
  return (
    <section aria-labelledby="report-progress">
      <h2 id="report-progress">{TYPE_NAMES[type]} report</h2>
      <ProblemMessage problem={report.problem} />
      <p class={`report-status report-${data?.status ?? 'loading'}`} role="status" aria-live="polite">
        {data ? `The report is ${STATUS_SENTENCES[data.status]}` : 'Reading the report…'}
        {data?.status === 'complete' && ` It has ${data.row_count} rows.`}
      </p>
      {data && (
        <dl class="fields">
          <dt>Id</dt>
          <dd>
            <code>{data.id}</code>
          </dd>
          <dt>Started</dt>
          <dd>
            <Time iso={data.created_at} />
          </dd>
          {data.completed_at && (
            <>
              <dt>Finished</dt>
              <dd>
                <Time iso={data.completed_at} />
              </dd>
            </>
          )}
          {data.email && (
            <>
              <dt>E-mail</dt>
              <dd>
                to {data.email.recipients.join(', ')}: {data.email.status}
              </dd>
            </>
          )}
        </dl>
      )}
      {data?.download_url && (
        <p>
          {/* Signed by the service for 15 minutes (its answer says attachment, so the browser saves it); a reload signs a fresh one. */}
          <a class="download" href={data.download_url}>
            Download the CSV ({data.row_count} rows)
          </a>{' '}
          <span class="hint">The link works for 15 minutes; reload the page for a new one.</span>
        </p>
      )}
    </section>
  );
}

export function Reports() {
  const canWrite = useCanWrite();
  const { type, report } = useQueryParams();
  const watched = (type === 'departments' || type === 'groups') && report ? { type: type as ReportType, id: report } : undefined;
  return (
    <>
      <ScreenTitle>Reports</ScreenTitle>
      <p class="hint">
        A report is a CSV file made in the background: the departments with their usage and limits, or every group with its members.
      </p>
      {canWrite ? <StartReport key={watched?.id} /> : <p>Your token may only read: it can follow a report, not start one.</p>}
      {watched && <ReportProgress key={watched.id} type={watched.type} id={watched.id} />}
    </>
  );
}
