/** The webhook routes. */
import type { OperationNameOf } from '../../routes';
import { MAX_WEBHOOKS } from '../../schemas/webhooks';
import * as responses from '../../schemas/responses';
import { LINK, location, type OperationDoc } from './shared';

export const webhookDocs = {
  createWebhook: {
    description: `Every change the audit trail records that passes the filters is delivered to \`url\` as a Standard Webhooks POST of \`{"type": "change.recorded", "timestamp", "data": <audit entry>}\`, signed with the secret this answer shows once (\`whsec_…\`, for the \`standardwebhooks\` libraries' \`Webhook(secret).verify\`). \`url\` must be \`https\` and its host must not resolve to a loopback, private, link-local (cloud metadata) or otherwise internal address, checked now and at each delivery (a deployment with \`WEBHOOKS_ALLOW_LOCAL=true\`, the local stack, also takes \`http\` and loopback). Filters: \`resource_types\`, \`operations\` (as audit entries name them: a contract label such as \`E2\`, else the operation's name) and \`exclude_actors\` (a client leaves out its own changes); empty or absent: everything. At most ${MAX_WEBHOOKS} webhooks: one more is 409 \`conflict\` with \`limit\`.`,
    responses: {
      201: { description: 'The webhook, with its secret.', schema: responses.webhookCreated, headers: { Location: location('webhook') } },
    },
    requestExample: {
      url: 'https://203.0.113.10/directory-changes',
      description: 'HR system',
      resource_types: ['user', 'department'],
      exclude_actors: ['hr-sync'],
    },
  },
  listWebhooks: {
    description: 'Every webhook, oldest first, without secrets.',
    responses: { 200: { description: 'The webhooks.', schema: responses.webhookList } },
  },
  getWebhook: {
    description:
      '`status` is `active`, `paused`, or `disabled` (every delivery attempt failed for 24 hours: the service stopped it; `PATCH` `status: active` re-enables it).',
    responses: { 200: { description: 'The webhook.', schema: responses.webhook } },
    problems: ['not-found'],
  },
  updateWebhook: {
    description:
      'Give any of `url`, `description`, the filters and `status`. `paused`: nothing is delivered from now on; `active` again: what changed meanwhile is delivered then (nothing is lost), and a `disabled` webhook is enabled again (what changed while it was disabled is not sent: read it from `GET /v2/changes`). A filter replaces the old one; `[]` lets everything through.',
    responses: { 200: { description: 'The webhook as changed.', schema: responses.webhook } },
    problems: ['not-found'],
    requestExample: { status: 'paused' },
  },
  deleteWebhook: {
    parameterExamples: { webhook_id: 'wh-retired' },
    description: 'Nothing more is delivered; attempts already under way may still arrive once.',
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not-found'],
  },
  rotateWebhookSecret: {
    description:
      'A new secret, shown this once. For 24 hours deliveries carry two signatures in `webhook-signature` (space-separated, as Standard Webhooks allows), one by each secret, so a receiver can switch secrets at any time within them; after that only the new one signs. A second rotation within the 24 hours ends the first old secret at once.',
    responses: { 200: { description: 'The new secret.', schema: responses.webhookSecret } },
    problems: ['not-found'],
  },
  testWebhook: {
    description:
      'Sends a `ping` event (`{"type": "ping", "timestamp", "data": {"webhook_id"}}`, signed like every delivery) to the endpoint now, whatever the status, and answers how that attempt went (it is in the delivery log too). An endpoint that does not answer within 10 seconds, answers a redirect, or resolves to a refused address: the attempt says so in `error`.',
    responses: { 200: { description: 'The attempt.', schema: responses.webhookDelivery } },
    problems: ['not-found'],
  },
  listWebhookDeliveries: {
    description:
      "The webhook's delivery attempts of the last 30 days, newest first: each change's attempts carry the change's id (the `webhook-id` the endpoint received), the answer's status code or the error, and when the next attempt is due. A change is attempted for more than 24 hours (after 5 seconds, 5 and 30 minutes, 2, 5, 10 and 10 hours), then recorded as failed.",
    responses: {
      200: {
        description: 'A page of attempts, newest first, with `count` and `next_cursor` (null on the last page).',
        schema: responses.webhookDeliveryList,
        headers: { Link: LINK },
      },
    },
    problems: ['not-found'],
  },
} satisfies Record<OperationNameOf<'Webhooks'>, OperationDoc>;
