/**
 * One webhook: its settings and status; a test ping and how it went; pause and resume; a new signing secret (shown
 * once; the old one still verifies for 24 hours); delete. Below, its delivery attempts, newest first, a page at a time
 * by cursor (kept in the query).
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api';
import type { paths } from '../api/schema';
import { ChangeResult } from '../components/change-result';
import { listHref, useQueryParams } from '../components/list-params';
import { Busy, ConfirmButton, Pager, ScreenTitle, Time } from '../components/parts';
import { SecretOnce } from '../components/secret';
import { useChange } from '../components/use-change';
import { useRequest } from '../components/use-request';
import { ProblemMessage } from '../problems';
import { useCanWrite } from '../session';
import { StatusWords, webhookHref, type Webhook } from './webhooks';

type Delivery = paths['/v2/webhooks/{webhook_id}/deliveries']['get']['responses'][200]['content']['application/json']['deliveries'][number];
type RotatedSecret = paths['/v2/webhooks/{webhook_id}/secret']['post']['responses'][200]['content']['application/json'];

const DELIVERIES_PAGE = 20;

const delivered = (attempt: Delivery) => attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;

/** How an attempt went, in a sentence. */
export function attemptSentence(attempt: Delivery): string {
  if (delivered(attempt)) return `The endpoint answered ${attempt.status_code} in ${attempt.duration_ms} ms.`;
  return `The attempt failed after ${attempt.duration_ms} ms: ${attempt.error ?? `the endpoint answered ${attempt.status_code}`}.`;
}

/** A test ping's change id (`ping_…`) says so. */
const isPing = (attempt: Delivery) => attempt.change_id.startsWith('ping_');

function Deliveries({ id, cursor }: { id: string; cursor?: string }) {
  const deliveries = useRequest(
    () =>
      api.GET('/v2/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: id }, query: { count: DELIVERIES_PAGE, cursor } } }),
    [id, cursor],
  );
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      <p class="hint">
        Every attempt of the last 30 days, newest first. A change is sent again until its endpoint answers 2xx within 10 seconds: after 5
        seconds, 5 and 30 minutes, then hours apart, for more than 24 hours.
      </p>
      <Busy when={deliveries.loading} />
      <ProblemMessage problem={deliveries.problem} />
      {deliveries.data && (
        <>
          {deliveries.data.deliveries.length > 0 && (
            // Wider than a phone, with nothing inside to focus: the box itself takes the focus, so the keyboard can scroll it.
            <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="deliveries-caption">
              <table class="wide">
                <caption id="deliveries-caption">Delivery attempts, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Change</th>
                    <th scope="col">Attempt</th>
                    <th scope="col">Status code</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Error</th>
                    <th scope="col">Next attempt</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.data.deliveries.map((attempt) => (
                    <tr key={attempt.id} data-delivery-id={attempt.id}>
                      <th scope="row">
                        <Time iso={attempt.at} />
                      </th>
                      <td>
                        {isPing(attempt) && 'test ping '}
                        <code>{attempt.change_id}</code>
                      </td>
                      <td>{attempt.attempt}</td>
                      <td>{attempt.status_code ?? 'no answer'}</td>
                      <td>{attempt.duration_ms} ms</td>
                      <td>{attempt.error ?? '—'}</td>
                      <td>{attempt.next_attempt_at ? <Time iso={attempt.next_attempt_at} /> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {deliveries.data.deliveries.length === 0 && <p>{cursor ? 'No more attempts.' : 'Nothing was sent yet.'}</p>}
          <Pager
            shown={deliveries.data.count}
            nextCursor={deliveries.data.next_cursor}
            href={(next) => listHref(webhookHref(id), { cursor: next })}
            first={!cursor}
            noun="attempts"
          />
        </>
      )}
    </section>
  );
}

function Settings({ webhook }: { webhook: Webhook }) {
  const list = (values: string[]) => (values.length > 0 ? values.join(', ') : 'all');
  return (
    <dl class="fields">
      <dt>URL</dt>
      <dd>
        <code>{webhook.url}</code>
      </dd>
      <dt>Description</dt>
      <dd>{webhook.description || '—'}</dd>
      <dt>Status</dt>
      <dd>
        <StatusWords webhook={webhook} />
      </dd>
      <dt>Resource types</dt>
      <dd>{list(webhook.resource_types)}</dd>
      <dt>Operations</dt>
      <dd>{list(webhook.operations)}</dd>
      <dt>Leaves out the changes of</dt>
      <dd>{webhook.exclude_actors.length > 0 ? webhook.exclude_actors.join(', ') : 'nobody'}</dd>
      <dt>Created</dt>
      <dd>
        <Time iso={webhook.created_at} />
      </dd>
      <dt>Changed</dt>
      <dd>
        <Time iso={webhook.updated_at} />
      </dd>
    </dl>
  );
}

/** What a new status means for the changes, in a sentence. */
const STATUS_CHANGED: Record<'paused' | 'resumed' | 'enabled', string> = {
  paused: 'Paused: nothing is delivered until it is resumed; what changes meanwhile is delivered then.',
  resumed: 'Resumed: what changed while it was paused is being delivered now, then every change as it happens.',
  enabled: 'Enabled again: changes from now on are delivered (what changed while it was disabled is not sent; the change feed has it).',
};

export function WebhookScreen({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const { cursor } = useQueryParams();
  const canWrite = useCanWrite();
  const webhook = useRequest(() => api.GET('/v2/webhooks/{webhook_id}', { params: { path: { webhook_id: id } } }), [id]);
  const change = useChange();
  const [secret, setSecret] = useState<RotatedSecret>();
  const [deleted, setDeleted] = useState(false);
  const [ping, setPing] = useState<Delivery>();
  // A test ping is in the delivery log too: the log is read again after one.
  const [pings, setPings] = useState(0);
  const path = { webhook_id: id };

  const setStatus = (status: 'active' | 'paused', said: string) => {
    setPing(undefined);
    return change
      .run(
        status === 'paused' ? 'Pausing…' : 'Resuming…',
        () => api.PATCH('/v2/webhooks/{webhook_id}', { params: { path }, body: { status } }),
        () => said,
      )
      .then((ok) => ok && webhook.reload());
  };

  // The API's answer is the attempt, which may itself have failed: <PingResult> tells which.
  const sendTest = () => {
    setPing(undefined);
    return change
      .run(
        'Sending a test ping (the endpoint has 10 seconds to answer)…',
        () => api.POST('/v2/webhooks/{webhook_id}/test', { params: { path } }),
        (attempt) => (setPing(attempt), undefined),
      )
      .then(() => setPings((n) => n + 1));
  };

  const rotate = () => {
    setSecret(undefined);
    setPing(undefined);
    return change.run(
      'Making a new secret…',
      () => api.POST('/v2/webhooks/{webhook_id}/secret', { params: { path } }),
      (rotated) => {
        setSecret(rotated);
        return 'Made a new signing secret.';
      },
    );
  };

  const remove = () =>
    change
      .run(
        'Deleting…',
        () => api.DELETE('/v2/webhooks/{webhook_id}', { params: { path } }),
        () => `Deleted the webhook for ${webhook.data?.url ?? id}: nothing more is delivered to it.`,
      )
      .then((ok) => {
        if (!ok) return;
        setSecret(undefined);
        setPing(undefined);
        setDeleted(true);
      });

  const current = webhook.data;
  const name = current ? current.description || current.url : id;
  return (
    <>
      <ScreenTitle>Webhook {current ? `“${name}”` : <code>{id}</code>}</ScreenTitle>
      <p>
        <Link href="/webhooks">All webhooks</Link>
      </p>
      <Busy when={webhook.loading && !deleted} />
      {!deleted && <ProblemMessage problem={webhook.problem} />}
      {current && !deleted && <Settings webhook={current} />}
      {current && !deleted && canWrite && (
        <div class="actions">
          <button type="button" onClick={() => void sendTest()} disabled={!!change.busy}>
            Send a test ping
          </button>
          {current.status === 'active' ? (
            <button type="button" onClick={() => void setStatus('paused', STATUS_CHANGED.paused)} disabled={!!change.busy}>
              Pause
            </button>
          ) : (
            <button
              type="button"
              onClick={() => void setStatus('active', current.status === 'paused' ? STATUS_CHANGED.resumed : STATUS_CHANGED.enabled)}
              disabled={!!change.busy}
            >
              {current.status === 'paused' ? 'Resume' : 'Enable again'}
            </button>
          )}
          <ConfirmButton
            label="Rotate the signing secret"
            question="Make a new signing secret? The receiving system must switch to it within 24 hours: until then deliveries are signed with both."
            confirm="Make a new secret"
            disabled={!!change.busy}
            onConfirm={() => void rotate()}
          />
          <ConfirmButton
            label="Delete the webhook"
            text="Delete"
            question={`Delete the webhook for ${current.url}? Nothing more will be delivered to it.`}
            confirm="Delete"
            danger
            disabled={!!change.busy}
            onConfirm={() => void remove()}
          />
        </div>
      )}
      <ChangeResult change={change} />
      {ping && (
        <p class={delivered(ping) ? 'done' : 'problem'} role="status">
          Sent a test ping. {attemptSentence(ping)}
        </p>
      )}
      {deleted && (
        <p>
          <Link href="/webhooks">Back to the webhooks</Link>
        </p>
      )}
      {secret && (
        <SecretOnce id="rotated-webhook-secret" label="New signing secret" secret={secret.secret}>
          Give the new signing secret to the receiving system. The old one still verifies deliveries for 24 hours, until{' '}
          <Time iso={secret.previous_secret_expires_at} />: deliveries are signed with both until then.
        </SecretOnce>
      )}
      {current && !deleted && <Deliveries key={pings} id={id} cursor={cursor} />}
    </>
  );
}
