/**
 * The errors only SCIM has words for (RFC 7644 §3.12): a bad filter, path or
 * value, each with its `scimType`. They are Problems, so that any code path
 * handles them as it handles the domain's; lib/http/scim.ts renders both as
 * SCIM errors.
 */
import { Problem } from '../problems';

/** The `scimType` values of RFC 7644 §3.12. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** An error only SCIM has words for: 400 with its `scimType`, unless told otherwise. */
export class ScimError extends Problem {
  constructor(
    readonly scimType: ScimType | undefined,
    detail: string,
    readonly httpStatus = 400,
  ) {
    super(httpStatus === 404 ? 'not-found' : httpStatus === 409 ? 'conflict' : 'validation', detail);
    this.name = 'ScimError';
  }
}

export const invalidFilter = (detail: string) => new ScimError('invalidFilter', detail);
export const invalidValue = (detail: string) => new ScimError('invalidValue', detail);
export const invalidSyntax = (detail: string) => new ScimError('invalidSyntax', detail);
export const invalidPath = (detail: string) => new ScimError('invalidPath', detail);
export const noTarget = (detail: string) => new ScimError('noTarget', detail);
export const mutability = (detail: string) => new ScimError('mutability', detail);
