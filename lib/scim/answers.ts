/**
 * What every SCIM handler reads from a request and answers with: list
 * parameters (RFC 7644 §3.4.2.4: `startIndex` below 1 is 1, a negative
 * `count` is 0, above the maximum is the maximum), the ListResponse, a
 * resource with its ETag and Location, the version an If-Match names.
 */
import { preconditionFailed } from '../problems';
import { invalidValue } from './errors';
import { attributeList, etagOf, project, versionOf, type ScimResource } from './resources';
import { LIST_SCHEMA, MAX_RESULTS } from './schema';

/** A query parameter by name, any case (`startindex`, `Filter`). */
export function param(query: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.entries(query).find(([key]) => key.toLowerCase() === lower)?.[1];
}

function integer(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw invalidValue(`${name} must be an integer.`);
  return Number(raw);
}

export interface ListParams {
  filter?: string;
  startIndex: number;
  count: number;
  attributes?: string[];
  excluded?: string[];
}

export function listParams(kind: 'User' | 'Group', query: Record<string, string>): ListParams {
  const filter = param(query, 'filter');
  return {
    filter: filter === undefined || filter.trim() === '' ? undefined : filter,
    startIndex: Math.max(1, integer(param(query, 'startIndex'), 'startIndex') ?? 1),
    count: Math.min(MAX_RESULTS, Math.max(0, integer(param(query, 'count'), 'count') ?? 100)),
    ...projection(kind, query),
  };
}

/** `attributes` / `excludedAttributes` of a request. */
export function projection(kind: 'User' | 'Group', query: Record<string, string>): { attributes?: string[]; excluded?: string[] } {
  return { attributes: attributeList(kind, param(query, 'attributes')), excluded: attributeList(kind, param(query, 'excludedAttributes')) };
}

export function listResponse(resources: ScimResource[], total: number, startIndex: number, params: ListParams) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources.map((r) => project(r, params.attributes, params.excluded)),
  };
}

/** A resource answer: its body (projected), its ETag, and for a creation its Location. */
export function resourceReply(
  resource: ScimResource,
  options: { status?: number; created?: boolean; query?: Record<string, string> } = {},
) {
  const meta = resource.meta as { version: string; location: string };
  const kind = meta && (resource.schemas as string[])[0].endsWith(':Group') ? 'Group' : 'User';
  const { attributes, excluded } = options.query ? projection(kind, options.query) : {};
  return {
    status: options.created ? 201 : (options.status ?? 200),
    body: project(resource, attributes, excluded),
    headers: { etag: meta.version, ...(options.created ? { location: meta.location } : {}) },
  };
}

/** The version an If-Match header names: undefined without one (or `*`); 412 for a tag that is none of ours. */
export function ifMatchVersion(headers: Record<string, string | undefined>): number | undefined {
  const version = versionOf(headers['if-match']);
  if (Number.isNaN(version)) throw preconditionFailed();
  return version;
}

export { etagOf };
