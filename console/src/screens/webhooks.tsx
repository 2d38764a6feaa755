/**
 * Webhooks: the endpoints that receive every change, signed (Standard Webhooks). The list (never a secret) with each
 * one's filters and status; a new webhook, whose signing secret is shown once, in this screen's memory only. Each
 * webhook's page (webhook.tsx) tests, pauses, rotates, deletes it and shows its deliveries.
 */
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api, type Schemas } from '../api';
import type { paths } from '../api/schema';
import { asyncHandler } from '../components/async-handler';
import { Busy, ScreenTitle, Time } from '../components/parts';
import { SecretOnce } from '../components/secret';
import { asProblem, unreachable, useRequest } from '../components/use-request';
import { ProblemMessage, type Problem } from '../problems';
import { useCanWrite } from '../session';

export type Webhook = paths['/v2/webhooks/{webhook_id}']['get']['responses'][200]['content']['application/json'];
type WebhookCreated = paths['/v2/webhooks']['post']['responses'][201]['content']['application/json'];
type ResourceType = Schemas['AuditEntry']['resource_type'];

/** Every resource type the trail records, as the person reads it (a Record: a type the API adds fails the typecheck here). */
const RESOURCE_TYPES: Record<ResourceType, string> = {
  user: 'Users',
  department: 'Departments',
  group: 'Groups',
  report: 'Reports',
  'scim-token': 'SCIM tokens',
  webhook: 'Webhooks',
};

export const webhookHref = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** A webhook's filters in words; none: every change. */
export function filtersInWords(webhook: Pick<Webhook, 'resource_types' | 'operations' | 'exclude_actors'>): string {
  const parts = [
    webhook.resource_types.length > 0 && `only ${webhook.resource_types.map((type) => RESOURCE_TYPES[type].toLowerCase()).join(', ')}`,
    webhook.operations.length > 0 && `operations ${webhook.operations.join(', ')}`,
    webhook.exclude_actors.length > 0 && `not by ${webhook.exclude_actors.join(', ')}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'every change';
}

export function StatusWords({ webhook }: { webhook: Webhook }) {
  if (webhook.status === 'disabled')
    return (
      <span class="status-disabled">
        disabled since <Time iso={webhook.disabled_at} /> (every attempt failed for 24 hours)
      </span>
    );
  return <span class={`status-${webhook.status}`}>{webhook.status}</span>;
}

/** Comma-separated values as a list, blanks left out. */
const listOf = (text: string) =>
  text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);

function CreateWebhook({ onCreated }: { onCreated: (webhook: WebhookCreated) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<ResourceType[]>([]);
  const [excluded, setExcluded] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="new-webhook">
      <h2 id="new-webhook">New webhook</h2>
      <form
        onSubmit={asyncHandler(async (event) => {
          event.preventDefault();
          setProblem(undefined);
          setBusy(true);
          try {
            const { data, error, response } = await api.POST('/v2/webhooks', {
              body: {
                url: url.trim(),
                ...(description.trim() && { description: description.trim() }),
                ...(types.length > 0 && { resource_types: types }),
                ...(listOf(excluded).length > 0 && { exclude_actors: listOf(excluded) }),
              },
            });
            if (error || !data) return setProblem(asProblem(error, response));
            setUrl('');
            setDescription('');
            setTypes([]);
            setExcluded('');
            onCreated(data);
          } catch (error) {
            setProblem(unreachable(error));
          } finally {
            setBusy(false);
          }
        })}
      >
        <label for="webhook-url">URL of the endpoint (https)</label>
        <input
          id="webhook-url"
          type="url"
          required
          maxLength={2000}
          class="wide-input"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <label for="webhook-description">Description (optional, e.g. the system: “HR system”)</label>
        <input
          id="webhook-description"
          maxLength={200}
          class="wide-input"
          value={description}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
        <fieldset>
          <legend>Changes of (none checked: every kind)</legend>
          {(Object.keys(RESOURCE_TYPES) as ResourceType[]).map((type) => (
            <label key={type} class="choice">
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(event) => setTypes(event.currentTarget.checked ? [...types, type] : types.filter((chosen) => chosen !== type))}
              />{' '}
              {RESOURCE_TYPES[type]}
            </label>
          ))}
        </fieldset>
        <label for="webhook-exclude">Leave out the changes of these actors (optional, comma-separated)</label>
        <input
          id="webhook-exclude"
          aria-describedby="webhook-exclude-hint"
          class="wide-input"
          value={excluded}
          onInput={(event) => setExcluded(event.currentTarget.value)}
        />
        <p class="hint" id="webhook-exclude-hint">
          Actors as the audit trail names them: give the receiving system's own, so its changes are not sent back to it.
        </p>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create webhook
          </button>
        </div>
      </form>
      <Busy when={busy}>Checking the endpoint and creating the webhook…</Busy>
      <ProblemMessage problem={problem} />
    </section>
  );
}

export function Webhooks() {
  const canWrite = useCanWrite();
  const webhooks = useRequest(() => api.GET('/v2/webhooks'), []);
  const [created, setCreated] = useState<WebhookCreated>();
  return (
    <>
      <ScreenTitle>Webhooks</ScreenTitle>
      <p class="hint">
        Each webhook receives every change that passes its filters, signed as Standard Webhooks specifies, retried for more than 24 hours
        until its endpoint answers. Systems that read instead use the change feed, <code>/v2/changes</code>.
      </p>
      <Busy when={webhooks.loading} />
      <ProblemMessage problem={webhooks.problem} />
      {webhooks.data && webhooks.data.webhooks.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Webhooks (their secrets are never shown again)</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Description</th>
                <th scope="col">Filters</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.webhooks.map((webhook) => (
                <tr key={webhook.id} data-webhook-id={webhook.id}>
                  <th scope="row">
                    <Link href={webhookHref(webhook.id)}>{webhook.url}</Link>
                  </th>
                  <td>{webhook.description || '—'}</td>
                  <td>{filtersInWords(webhook)}</td>
                  <td>
                    <StatusWords webhook={webhook} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {webhooks.data?.webhooks.length === 0 && <p>No webhook yet.</p>}
      {created && (
        <SecretOnce id="new-webhook-secret" label="Signing secret" secret={created.secret}>
          Created the webhook for <code>{created.url}</code>: give its signing secret to the receiving system, which verifies each delivery
          with it. <Link href={webhookHref(created.id)}>Open the webhook</Link> to send it a test.
        </SecretOnce>
      )}
      {canWrite && (
        <CreateWebhook
          onCreated={(webhook) => {
            setCreated(webhook);
            webhooks.reload();
          }}
        />
      )}
    </>
  );
}
