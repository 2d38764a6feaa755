/**
 * What the OpenAPI document says about each operation beyond what the route
 * table (lib/routes.ts) and the handler's request schemas (`handler.spec`)
 * already say: its responses, the problems it can answer, the text of its
 * parameters and an example request body.
 *
 * This is a docs-only module: the document generator reads it, and handlers
 * only its types (their replies are typed by these responses), so response
 * schemas never reach a route function's bundle. Every route of the table but
 * SCIM's needs an entry here: one without is a type error.
 *
 * Problems that follow from the route itself are added by the generator
 * (lib/openapi/document.ts): 401 and 403 from its access level, 400 when it
 * takes any input, 413/415 when it takes a body, 409 `conflict` for every
 * change (a concurrent change won), 412 with `ifMatch`, and 500/503.
 *
 * One file per tag of the route table, in lib/openapi/operation-docs/; this one joins them in the document's order.
 */
import type { OperationName, OperationNameOf } from '../routes';
import { auditDocs } from './operation-docs/audit';
import { departmentDocs } from './operation-docs/departments';
import { groupDocs } from './operation-docs/groups';
import { reportDocs } from './operation-docs/reports';
import { scimTokenDocs } from './operation-docs/scim-tokens';
import { serviceDocs } from './operation-docs/service';
import type { OperationDoc } from './operation-docs/shared';
import { userDocs } from './operation-docs/users';
import { webhookDocs } from './operation-docs/webhooks';

export type { HeaderDoc, OperationDoc, ResponseDoc } from './operation-docs/shared';

/** By operation name: every operation of the route table but SCIM's (lib/openapi/scim.ts). */
export const operationDocs = {
  ...serviceDocs,
  ...userDocs,
  ...departmentDocs,
  ...groupDocs,
  ...reportDocs,
  ...scimTokenDocs,
  ...webhookDocs,
  ...auditDocs,
} satisfies Record<Exclude<OperationName, OperationNameOf<'SCIM'>>, OperationDoc>;

type DocumentedResponses = { [Name in keyof typeof operationDocs]: (typeof operationDocs)[Name]['responses'] };

// Handlers' replies are typed by these responses (lib/http/response.ts ReplyOf): a type-only link, so no schema reaches a bundle.
declare module '../http/response' {
  interface OperationResponses extends DocumentedResponses {}
}
