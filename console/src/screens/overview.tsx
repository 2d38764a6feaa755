/**
 * The overview: how many users, departments and groups; the largest
 * departments that are at or over a quota; the latest changes. Each part is
 * a page or less: totals come with a one-item page, quotas are read for the
 * five largest departments only (one E6 each: with the lists, about a page and a half of reads); the latest changes are
 * the trail's newest five, then the change feed followed while the screen is open (overview-changes.tsx).
 */
import { Link } from 'wouter-preact';
import { api } from '../api';
import { Busy, QuotaBar, ScreenTitle } from '../components/parts';
import { useRequest } from '../components/use-request';
import { ProblemMessage } from '../problems';
import { LatestChanges } from './overview-changes';

/** How many of the largest departments the overview checks against their quotas. */
export const QUOTA_CHECKED_DEPARTMENTS = 5;

function Total({ label, href, total }: { label: string; href: string; total: number | undefined }) {
  return (
    <Link class="total" href={href}>
      <span class="total-number">{total ?? '…'}</span> <span>{label}</span>
    </Link>
  );
}

function useTotals() {
  return useRequest(async () => {
    const one = { params: { query: { count: 1 } } } as const;
    // The departments' total comes with their largest (useDepartmentsAtQuota): one call fewer.
    const [users, groups] = await Promise.all([api.GET('/v2/users', one), api.GET('/v2/groups', one)]);
    const failed = [users, groups].find((answer) => answer.error || !answer.response.ok);
    if (failed) return failed as typeof users & { data?: never };
    return { response: users.response, data: { users: users.data!.total, groups: groups.data!.total } };
  }, []);
}

function useDepartmentsAtQuota() {
  return useRequest(async () => {
    const largest = await api.GET('/v2/departments', { params: { query: { sort: 'user_count:desc', count: QUOTA_CHECKED_DEPARTMENTS } } });
    if (largest.error || !largest.data) return { error: largest.error, response: largest.response };
    const quotas = await Promise.all(
      largest.data.departments.map((department) =>
        api
          .GET('/v2/departments/{department_id}/quotas', { params: { path: { department_id: department.id } } })
          .then((answer) => ({ department, quotas: answer.data?.quotas ?? [] })),
      ),
    );
    const atQuota = quotas
      .map(({ department, quotas }) => ({
        department,
        reached: quotas.filter((quota) => quota.limit !== null && quota.usage >= quota.limit),
      }))
      .filter(({ reached }) => reached.length > 0);
    return { response: largest.response, data: { total: largest.data.total, atQuota } };
  }, []);
}

export function Overview() {
  const totals = useTotals();
  const atQuota = useDepartmentsAtQuota();
  return (
    <>
      <ScreenTitle>Overview</ScreenTitle>
      <ProblemMessage problem={totals.problem} />
      <div class="totals">
        <Total label="users" href="/users" total={totals.data?.users} />
        <Total label="departments" href="/departments" total={atQuota.data?.total} />
        <Total label="groups" href="/groups" total={totals.data?.groups} />
      </div>

      <section aria-labelledby="at-quota">
        <h2 id="at-quota">Departments at or over a quota</h2>
        <p class="hint">Among the {QUOTA_CHECKED_DEPARTMENTS} largest departments.</p>
        <Busy when={atQuota.loading} />
        <ProblemMessage problem={atQuota.problem} />
        {atQuota.data && atQuota.data.atQuota.length === 0 && <p>None of them is at a limit.</p>}
        <ul class="cards">
          {atQuota.data?.atQuota.map(({ department, reached }) => (
            <li key={department.id}>
              <Link href={`/departments/${encodeURIComponent(department.id)}`}>{department.name}</Link>
              {reached.map((quota) => (
                <QuotaBar key={quota.name} name={quota.name} usage={quota.usage} limit={quota.limit} />
              ))}
            </li>
          ))}
        </ul>
      </section>

      <LatestChanges />
    </>
  );
}
