/**
 * SCIM errors on the wire (RFC 7644 §3.12): what a SCIM route answers instead
 * of problem+json. A SCIM request fails with a ScimError (lib/scim/errors.ts)
 * or with any error of the domain, which lib/http/problem.ts classifies once
 * for both formats; this module renders the classification the SCIM way,
 * with the `scimType` that fits.
 */
import { PROBLEM_STATUS, type Problem, type ProblemSlug } from '../problems';
import { ScimError, type ScimType } from '../scim/errors';
import { classifyError } from './problem';
import type { HttpResponse } from './response';
import { scimErrorResponse } from './scim-wire';

/** The scimType a problem of the domain takes, where one fits. */
const SCIM_TYPE_OF: Partial<Record<ProblemSlug, ScimType>> = {
  validation: 'invalidValue',
  conflict: 'uniqueness',
};

/** The detail of a problem, with what its extra members say (each quota overage, each missing user). */
function detailOf(problem: Problem): string {
  const { overages, missing_user_ids, errors } = problem.extra as {
    overages?: Array<{ quota: string; limit: number; usage: number; requested: number; overage: number }>;
    missing_user_ids?: string[];
    errors?: Array<{ field: string; message: string }>;
  };
  const parts = [problem.message];
  if (overages?.length) {
    parts.push(
      overages.map((o) => `${o.quota}: limit ${o.limit}, usage ${o.usage}, requested ${o.requested} (${o.overage} over)`).join('; '),
    );
  }
  if (missing_user_ids?.length && !problem.message.includes(missing_user_ids[0]))
    parts.push(`unknown users: ${missing_user_ids.join(', ')}`);
  if (errors?.length && !problem.message.includes(errors[0].message)) parts.push(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return parts.join(' — ');
}

/** Any error, as a SCIM error response. */
export function errorToScim(error: unknown, requestId: string): HttpResponse {
  if (error instanceof ScimError) return scimErrorResponse(error.httpStatus, error.message, error.scimType);
  const problem = classifyError(error, requestId);
  // A rule group's members (409 `rule-managed` in the admin API) are, to SCIM, an attribute it may not change.
  if (problem.slug === 'rule-managed') return scimErrorResponse(400, problem.message, 'mutability');
  const status = PROBLEM_STATUS[problem.slug];
  const detail = problem.slug === 'internal' ? `An unexpected error occurred (request ${requestId}).` : detailOf(problem);
  return scimErrorResponse(status, detail, SCIM_TYPE_OF[problem.slug]);
}
