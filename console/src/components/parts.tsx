/** Small parts every screen uses: a heading that takes focus, a busy line, the pager, a confirmation, a quota bar. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Link } from 'wouter-preact';

/** Whether a screen was shown already: the page's first screen leaves the focus where the browser puts it (before the skip link). */
let shownBefore = false;

/** The screen's heading; focused when the person moves to another screen, so a keyboard or screen-reader user starts there. */
export function ScreenTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (shownBefore) ref.current?.focus();
    shownBefore = true;
  }, []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export function Busy({ when, children = 'Loading…' }: { when: boolean; children?: ComponentChildren }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      {when ? children : ''}
    </p>
  );
}

/**
 * A list's pager: what this page shows of the total, and the next page by its cursor (a link, so the back button
 * returns to the page before). `href(cursor)` keeps the list's filters.
 */
export function Pager(props: {
  shown: number;
  total?: number;
  offset?: number;
  nextCursor?: string | null;
  href: (cursor?: string) => string;
  first: boolean;
  noun: string;
}) {
  const { shown, total, nextCursor, href, first, noun } = props;
  return (
    <nav class="pager" aria-label={`Pages of ${noun}`}>
      <span>
        {shown} {noun} shown{total === undefined ? '' : ` of ${total}`}
      </span>
      {!first && <Link href={href()}>First page</Link>}
      {nextCursor && <Link href={href(nextCursor)}>Next page</Link>}
    </nav>
  );
}

/** A button that asks first, in a modal dialog (the browser's: it keeps focus inside and Escape cancels). */
export function ConfirmButton(props: {
  /** The button's name; `text`, when given, is what it shows (a short word that begins the name, as WCAG 2.5.3 asks). */
  label: string;
  text?: string;
  question: string;
  confirm: string;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        class={props.danger ? 'danger' : undefined}
        disabled={props.disabled}
        onClick={() => dialog.current?.showModal()}
        aria-label={props.text ? props.label : undefined}
      >
        {props.text ?? props.label}
      </button>
      <dialog ref={dialog} aria-label={props.label}>
        <form method="dialog">
          <p>{props.question}</p>
          <div class="actions">
            <button value="cancel" autoFocus>
              Cancel
            </button>
            <button value="confirm" class={props.danger ? 'danger' : undefined} onClick={props.onConfirm}>
              {props.confirm}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** A quota's usage against its limit, as a bar and in words (the words carry it for a screen reader). */
export function QuotaBar({ name, usage, limit }: { name: string; usage: number; limit: number | null }) {
  const ratio = limit === null ? 0 : limit === 0 ? (usage > 0 ? 1 : 0) : Math.min(usage / limit, 1);
  const state = limit === null ? 'none' : usage > limit ? 'over' : usage === limit ? 'full' : ratio >= 0.8 ? 'near' : 'ok';
  const words =
    limit === null
      ? `${usage} (no limit)`
      : `${usage} of ${limit}${state === 'over' ? ', over the limit' : state === 'full' ? ', at the limit' : ''}`;
  return (
    <div class={`quota quota-${state}`}>
      <span class="quota-name">{name}</span>
      <span class="quota-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(ratio * 100)}%` }} />
      </span>
      <span class="quota-words">{words}</span>
    </div>
  );
}

/** A time as the person's locale writes it, with the exact ISO time on hover and for machines. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>never</span>;
  return (
    <time dateTime={iso} title={iso}>
      {new Date(iso).toLocaleString()}
    </time>
  );
}

/** A change's result in a sentence, announced (the console's answer to every change that succeeded). */
export function Done({ children }: { children: ComponentChildren }) {
  if (!children) return null;
  return (
    <p class="done" role="status">
      {children}
    </p>
  );
}

/** An ISO time as a `datetime-local` input shows it (the person's local time), and back; '' for none. */
export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
export function localInputToIso(value: string): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}
