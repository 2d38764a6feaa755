/**
 * What the report e-mail says, once, as plain data: the subject, the key
 * figures, the lists and how to get the CSV, with every number already
 * formatted for the reader. The text part (email-text.ts) and the HTML part
 * (email-html.ts) only lay it out, so the two cannot say different things.
 */
import type { StoredReport } from './jobs';
import type { DepartmentsSummary, GroupsSummary, QuotaHit, ReportSummary } from './summary';

export interface MailFacts {
  report: StoredReport;
  rowCount: number;
  summary?: ReportSummary;
  /** Size of the attached CSV; absent when it travels as a link. */
  attachmentBytes?: number;
  link?: string;
  /** When the link stops working; without it, read from a pre-signed link's own parameters. */
  linkExpiresAt?: Date;
}

/** A key number, shown large in the HTML; `id` names it for tests and styles. */
export interface Figure {
  id: string;
  value: string;
  label: string;
  alert?: boolean;
}

export interface Item {
  name: string;
  detail: string;
  alert?: boolean;
}

export interface Section {
  id: string;
  heading: string;
  items: Item[];
  /** Said instead of the list when it is empty. */
  none: string;
  /** Said after the list when it shows only the first ones. */
  more?: string;
}

export type CsvDelivery =
  { attached: true; fileName: string; description: string } | { attached: false; link: string; description: string };

export interface MailContent {
  subject: string;
  title: string;
  /** When the report was asked for. */
  made: string;
  /** Its id, for a question to whoever runs the service. */
  reference: string;
  figures: Figure[];
  note?: string;
  sections: Section[];
  csv: CsvDelivery;
  /** Why the reader got this. */
  footer: string;
}

// Intl objects are made on first use: building them at import would cost the worker's cold start.
let numbers: Intl.NumberFormat | undefined;
let dates: Intl.DateTimeFormat | undefined;

/** 12345 → "12,345", as an en-US reader expects. */
export function formatNumber(value: number): string {
  numbers ??= new Intl.NumberFormat('en-US');
  return numbers.format(value);
}

/** "November 21, 2026 at 9:30 AM UTC": the reader's time zone is unknown, so the time says its own. */
export function formatTime(date: Date): string {
  dates ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return `${dates.format(date)} UTC`;
}

/** "1 department", "1,000 departments". */
export function counted(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return counted(bytes, 'byte', 'bytes');
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value < 10 ? value.toFixed(1) : formatNumber(Math.round(value))} ${unit}`;
}

/** When a SigV4 pre-signed link stops working: it carries its signing time and lifetime (X-Amz-Date, X-Amz-Expires). */
export function linkExpiry(link: string): Date | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(link).searchParams;
  } catch {
    return undefined;
  }
  const signed = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(params.get('X-Amz-Date') ?? '');
  const seconds = Number(params.get('X-Amz-Expires'));
  if (!signed || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const [, year, month, day, hour, minute, second] = signed.map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) + seconds * 1000);
}

function quotaHit({ quota, usage, limit }: QuotaHit): string {
  const over = usage > limit ? ` (${formatNumber(usage - limit)} over)` : '';
  return `${quota} ${formatNumber(usage)} of ${formatNumber(limit)}${over}`;
}

function departmentsContent(summary: DepartmentsSummary): Pick<MailContent, 'subject' | 'figures' | 'sections'> {
  const atQuota = summary.atQuota === 0 ? 'none' : formatNumber(summary.atQuota);
  const unlisted = summary.atQuota - summary.atQuotaListed.length;
  return {
    subject: `Departments report: ${counted(summary.departments, 'department', 'departments')}, ${atQuota} at a quota limit`,
    figures: [
      { id: 'departments', value: formatNumber(summary.departments), label: summary.departments === 1 ? 'department' : 'departments' },
      {
        id: 'people',
        value: formatNumber(summary.people),
        label: summary.people === 1 ? 'person in a department' : 'people in departments',
      },
      { id: 'at-quota', value: formatNumber(summary.atQuota), label: 'at a quota limit', alert: summary.atQuota > 0 },
    ],
    sections: [
      {
        id: 'at-quota',
        heading: 'At or over a quota limit',
        items: summary.atQuotaListed.map((department) => ({
          name: department.name,
          detail: department.hits.map(quotaHit).join(', '),
          alert: true,
        })),
        none: 'No department is at a quota limit.',
        more: unlisted > 0 ? `And ${counted(unlisted, 'more', 'more')}: the CSV lists every department with its quotas.` : undefined,
      },
      {
        id: 'largest',
        heading: 'Largest departments',
        items: summary.largest.map((department) => ({ name: department.name, detail: counted(department.count, 'person', 'people') })),
        none: 'No department has anyone in it yet.',
      },
    ],
  };
}

function groupsContent(summary: GroupsSummary): Pick<MailContent, 'subject' | 'figures' | 'sections' | 'note'> {
  const unlisted = summary.empty - summary.emptyListed.length;
  return {
    subject: `Groups report: ${counted(summary.groups, 'group', 'groups')}, ${counted(summary.members, 'member', 'members')}`,
    figures: [
      { id: 'groups', value: formatNumber(summary.groups), label: summary.groups === 1 ? 'group' : 'groups' },
      { id: 'members', value: formatNumber(summary.members), label: summary.members === 1 ? 'member' : 'members' },
      { id: 'empty', value: formatNumber(summary.empty), label: summary.empty === 1 ? 'empty group' : 'empty groups' },
    ],
    note: 'A person in several groups counts once in each.',
    sections: [
      {
        id: 'largest',
        heading: 'Largest groups',
        items: summary.largest.map((group) => ({ name: group.name, detail: counted(group.count, 'member', 'members') })),
        none: 'No group has members yet.',
      },
      {
        id: 'empty',
        heading: 'Empty groups',
        items: summary.emptyListed.map((group) => ({ name: group.name, detail: 'no members' })),
        none: 'Every group has members.',
        more: unlisted > 0 ? `And ${counted(unlisted, 'more', 'more')}: the CSV lists every group.` : undefined,
      },
    ],
  };
}

export function mailContent({ report, rowCount, summary, attachmentBytes, link, linkExpiresAt }: MailFacts): MailContent {
  const title = report.type === 'departments' ? 'Departments report' : 'Groups report';
  const rows = counted(rowCount, 'row', 'rows');
  const expires = linkExpiresAt ?? (link ? linkExpiry(link) : undefined);
  const described = summary
    ? summary.type === 'departments'
      ? departmentsContent(summary)
      : groupsContent(summary)
    : {
        subject: `${title}: ${rows}`,
        figures: [{ id: 'rows', value: formatNumber(rowCount), label: rowCount === 1 ? 'row' : 'rows' }],
        sections: [],
      };
  return {
    ...described,
    title,
    made: `Made ${formatTime(new Date(report.created_at))}`,
    reference: `Report ${report.id}`,
    footer: 'You get this e-mail because the report was asked for with delivery to your address.',
    csv:
      attachmentBytes !== undefined
        ? {
            attached: true,
            fileName: `${report.type}-report-${report.id}.csv`,
            description: `The CSV is attached (${rows}, ${formatBytes(attachmentBytes)}).`,
          }
        : {
            attached: false,
            link: link ?? '',
            description: `The CSV (${rows}) is too large to attach; download it with the link${expires ? `, which works until ${formatTime(expires)}` : ''}.`,
          },
  };
}
