/** The audit trail and the change feed. */
import type { OperationNameOf } from '../../routes';
import { AUDIT_FILTER_ATTRIBUTES, RESOURCE_TYPES } from '../../schemas/enums';
import * as responses from '../../schemas/responses';
import { FILTER_VALUES, filterPattern } from '../parameters';
import { LINK, type OperationDoc } from './shared';

export const auditDocs = {
  listAudit: {
    description:
      'Every change, recorded in the same transaction as the change: who (the token subject), when, the operation id, the resource and what changed. For a membership change the resource is the department or group, and `changes` names the users.',
    responses: {
      200: {
        description:
          'A page of audit entries, newest first, with `count` and `next_cursor` (null on the last page). The trail only grows: it has no `total` and no `offset`.',
        schema: responses.auditList,
        headers: { Link: LINK },
      },
    },
    parameters: {
      query: `Filters \`<attribute>:<value>\`, comma-separated, attribute one of ${AUDIT_FILTER_ATTRIBUTES.map((a) => `\`${a}\``).join(', ')} (exact). The same attribute twice means either value; different attributes must all hold.`,
      since: 'Only entries at or after this time (ISO 8601).',
      before: 'Only entries before this time (ISO 8601).',
    },
    parameterSchemas: {
      query: {
        pattern: filterPattern(Object.fromEntries(AUDIT_FILTER_ATTRIBUTES.map((attribute) => [attribute, FILTER_VALUES.exact]))),
      },
    },
    parameterExamples: { query: 'resource_id:eng', since: '2026-11-01T00:00:00.000Z', before: '2026-12-01T00:00:00.000Z' },
  },
  listChanges: {
    description:
      "The audit trail in the order its entries reached the feed (oldest first), for systems that follow every change. Each entry is given its place after its change has committed, so a walk by cursor never skips and never repeats an entry, however long a change took to commit, and an entry appears within 10 seconds of its request's answer. `next_cursor` is never null: at the end it is where to continue later.",
    responses: {
      200: {
        description:
          'A page of audit entries, oldest first, with `count` and `next_cursor`. A page may hold fewer than `count` entries, or none, while more follow: keep the cursor and ask again.',
        schema: responses.changeList,
        headers: { Link: LINK },
      },
    },
    parameters: {
      since:
        'Start at this time (ISO 8601): the entries that reached the feed at or after it, which include every entry stamped (`at`) at or after it and may include a few stamped just before it whose changes committed after it. Or `now`: an empty page whose cursor starts at the end of the feed. Not with `cursor`.',
      resource_type: `Only entries of these resource types (${RESOURCE_TYPES.map((t) => `\`${t}\``).join(', ')}), comma-separated or repeated. A cursor keeps them.`,
      exclude_actor:
        'Not the entries of these actors (a consumer leaves out its own changes), comma-separated or repeated. A cursor keeps them.',
    },
    parameterExamples: { since: '2026-11-01T00:00:00.000Z', resource_type: 'user,department', exclude_actor: 'hr-sync' },
  },
} satisfies Record<OperationNameOf<'Audit'>, OperationDoc>;
