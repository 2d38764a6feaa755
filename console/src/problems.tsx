/**
 * A problem the API answered (RFC 9457), told as a person reads it: a
 * sentence, and for a quota refusal each overage in a small table. The API's
 * own `detail` is the sentence wherever the console has nothing better to say.
 */
import type { ComponentChildren } from 'preact';

export interface Overage {
  quota: string;
  limit: number;
  usage: number;
  requested: number;
  overage: number;
}

export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
  overages?: Overage[];
  missing_user_ids?: string[];
  user_ids?: string[];
  user_count?: number;
  /** A rule matching more users than a group holds (409 `conflict`): how many it matches, and the limit. */
  matching?: number;
  limit?: number;
}

const slugOf = (problem: Problem) => problem.type?.split('/').pop() ?? '';

/** What a problem means to the person who caused it, in a sentence. */
export function problemSentence(problem: Problem): string {
  switch (slugOf(problem)) {
    case 'precondition-failed':
      return 'Someone else changed this since you opened it. Reload to see their change, then make yours again.';
    case 'quota-exceeded':
      return 'Nothing was changed: this would take the department over its quotas.';
    case 'forbidden':
      return 'Your token may only read: it cannot make this change.';
    case 'rule-managed':
      return "This group's members follow its rule: change the rule, not the members.";
    case 'conflict':
      if (problem.matching !== undefined) {
        return `Nothing was saved: the rule matches ${problem.matching} users and a group holds at most ${problem.limit ?? 10000}. Narrow it: fewer departments, one role, or activated:true.`;
      }
      return problem.detail ?? 'This conflicts with the current state: reload and try again.';
    case 'department-not-empty':
      return `The department still has ${problem.user_count ?? 'some'} users: move or remove them first.`;
    case 'too-many-requests':
      return 'The service is busy: wait a moment and try again.';
    case 'unavailable':
      return 'The service could not finish this just now; nothing was half done. Try again in a moment.';
    default:
      return problem.detail ?? problem.title ?? `The request failed (${problem.status ?? 'no answer'}).`;
  }
}

export function ProblemMessage({ problem, children }: { problem: Problem | undefined; children?: ComponentChildren }) {
  if (!problem) return null;
  return (
    <div class="problem" role="alert">
      <p>{problemSentence(problem)}</p>
      {problem.overages && problem.overages.length > 0 && <OverageTable overages={problem.overages} />}
      {problem.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((error) => (
            <li key={error.field}>
              <code>{error.field}</code>: {error.message}
            </li>
          ))}
        </ul>
      )}
      {problem.missing_user_ids && <p>Unknown users: {problem.missing_user_ids.join(', ')}</p>}
      {children}
    </div>
  );
}

export function OverageTable({ overages }: { overages: Overage[] }) {
  return (
    <div class="table-scroll">
      <table>
        <caption>Quotas this would exceed</caption>
        <thead>
          <tr>
            <th scope="col">Quota</th>
            <th scope="col">Limit</th>
            <th scope="col">In use</th>
            <th scope="col">Adding</th>
            <th scope="col">Over by</th>
          </tr>
        </thead>
        <tbody>
          {overages.map((o) => (
            <tr key={o.quota}>
              <th scope="row">{o.quota}</th>
              <td>{o.limit}</td>
              <td>{o.usage}</td>
              <td>{o.requested}</td>
              <td>{o.overage}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
