/**
 * Checks an HTTP answer of the service against the generated OpenAPI
 * document: the operation must document the status code, the media type,
 * every required header, and the body must validate against the schema
 * (objects are closed, so an undocumented field fails). Api.request runs it
 * on every response of the HTTP tests, so the document cannot drift from what
 * the service does.
 *
 * Validation is JSON Schema 2020-12 (the dialect of OpenAPI 3.1) by Ajv with
 * ajv-formats; the component schemas are registered under absolute ids so that
 * the document's `#/components/schemas/...` references resolve.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateDocument } from '../../lib/openapi/generate';
import { servedFormsOf, type OpenApiDocument, problemComponent } from '../../lib/openapi/document';
import { isScimPath } from '../../lib/routes';
import { PROBLEM_STATUS } from '../../lib/problems';

type Json = Record<string, any>;

export interface CheckedRequest {
  method: string;
  /** Path, with or without a query string. */
  path: string;
}

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
}

const COMPONENTS_BASE = 'https://openapi.invalid/components/schemas/';
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

interface Candidate {
  method: string;
  pattern: RegExp;
  /** 0 per literal segment, 1 per parameter: literal routes first, as API Gateway matches them. */
  specificity: number[];
  documentedPath: string;
  operation: Json;
}

function bySpecificity(a: Candidate, b: Candidate): number {
  for (let i = 0; i < Math.min(a.specificity.length, b.specificity.length); i++) {
    if (a.specificity[i] !== b.specificity[i]) return a.specificity[i] - b.specificity[i];
  }
  return a.specificity.length - b.specificity.length;
}

function compilePath(path: string): Pick<Candidate, 'pattern' | 'specificity'> {
  const specificity: number[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const parameter = /^\{\w+\}$/.test(segment);
      specificity.push(parameter ? 1 : 0);
      return parameter ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), specificity };
}

/** `#/components/schemas/X` → the absolute id X is registered under. */
function absoluteRefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, inner) =>
    key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')
      ? COMPONENTS_BASE + inner.slice('#/components/schemas/'.length)
      : inner,
  );
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly candidates: Candidate[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      this.ajv.addSchema(absoluteRefs(schema), COMPONENTS_BASE + name);
    }
    this.candidates = Object.entries(document.paths)
      .flatMap(([documentedPath, item]) =>
        Object.entries(item).flatMap(([method, operation]) =>
          servedFormsOf(documentedPath).map((served) => ({
            method: method.toUpperCase(),
            ...compilePath(served),
            documentedPath,
            operation,
          })),
        ),
      )
      .sort(bySpecificity);
  }

  /** Throws, saying what is wrong, when `response` is not what the document promises for `request`. */
  check(request: CheckedRequest, response: CheckedResponse): void {
    const rawPath = request.path.split('?')[0];
    const method = request.method.toUpperCase();
    const where = `${method} ${request.path} → ${response.status}`;
    // HEAD is GET without the body (the contract's HEAD rule): the GET operation's status and headers, and nothing else.
    const head = method === 'HEAD';
    if (head && response.text !== '') throw new Error(`${where}: a HEAD answer has a body: ${response.text.slice(0, 200)}`);
    const documentedMethod = head ? 'GET' : method;
    const match = this.candidates.find((candidate) => candidate.method === documentedMethod && candidate.pattern.test(rawPath));
    if (!match) {
      // No route for this method: the fallback's 405 with Allow on a documented path, else its 404; problems like any other.
      const known = this.candidates.filter((candidate) => candidate.pattern.test(rawPath));
      const slug = known.length > 0 ? 'method-not-allowed' : 'not-found';
      if (response.status !== PROBLEM_STATUS[slug]) {
        throw new Error(`${where}: no documented operation serves this request, yet the answer is not ${PROBLEM_STATUS[slug]} ${slug}`);
      }
      if (slug === 'method-not-allowed') {
        const documented = new Set(known.map((candidate) => candidate.method));
        if (documented.has('GET')) documented.add('HEAD');
        const allow = (response.headers.get('allow') ?? '').split(',').map((value) => value.trim());
        if ([...documented].sort().join() !== [...allow].sort().join()) {
          throw new Error(`${where}: Allow is "${response.headers.get('allow')}", the document serves ${[...documented].join(', ')}`);
        }
      }
      if (head) return;
      // Under SCIM's base path the fallback answers a SCIM error, as every SCIM route does.
      const scim = isScimPath(rawPath);
      this.checkBody(
        where,
        `unrouted#${slug}${scim ? '#scim' : ''}`,
        scim
          ? { 'application/scim+json': { schema: { $ref: '#/components/schemas/ScimError' } } }
          : { 'application/problem+json': { schema: { $ref: `#/components/schemas/${problemComponent(slug)}` } } },
        response,
      );
      return;
    }
    const operationId = String(match.operation.operationId);
    const documented = match.operation.responses as Record<string, Json>;
    const entry = documented[String(response.status)];
    if (!entry) {
      throw new Error(
        `${where}: ${operationId} does not document status ${response.status} (it documents ${Object.keys(documented).join(', ')}). Body: ${response.text.slice(0, 500)}`,
      );
    }
    const documentedResponse = this.resolveResponse(entry);
    for (const [name, header] of Object.entries((documentedResponse.headers ?? {}) as Record<string, Json>)) {
      if (header.required && !response.headers.has(name))
        throw new Error(`${where}: ${operationId} documents the header ${name}, which is missing`);
    }
    if (head) {
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      const content = documentedResponse.content as Record<string, Json> | undefined;
      if (content && !content[mediaType])
        throw new Error(`${where}: answered ${mediaType || 'no content type'}; documented are ${Object.keys(content)}`);
      return;
    }
    this.checkBody(where, `${operationId}#${response.status}`, documentedResponse.content, response);
  }

  private resolveResponse(entry: Json): Json {
    if (typeof entry.$ref !== 'string') return entry;
    const name = entry.$ref.replace('#/components/responses/', '');
    const resolved = (this.document.components as Json).responses?.[name];
    if (!resolved) throw new Error(`The document refers to ${entry.$ref}, which it does not define`);
    return resolved;
  }

  private checkBody(where: string, key: string, content: Record<string, Json> | undefined, response: CheckedResponse): void {
    if (!content) {
      if (response.text !== '') throw new Error(`${where}: documented without a body, yet it has one: ${response.text.slice(0, 500)}`);
      return;
    }
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const media = content[mediaType];
    if (!media) throw new Error(`${where}: answered ${mediaType || 'no content type'}; documented are ${Object.keys(content).join(', ')}`);
    if (!isJson(mediaType)) return;
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      throw new Error(`${where}: the ${mediaType} body is not JSON: ${response.text.slice(0, 500)}`);
    }
    const validatorKey = `${key}#${mediaType}`;
    let validate = this.validators.get(validatorKey);
    if (!validate) {
      validate = this.ajv.compile(absoluteRefs(media.schema ?? {}));
      this.validators.set(validatorKey, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map(
        (error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
      );
      throw new Error(
        `${where}: the body does not match the OpenAPI document:\n  ${errors.join('\n  ')}\nBody: ${response.text.slice(0, 1000)}`,
      );
    }
  }
}

let checker: Promise<OpenApiChecker> | undefined;

/** The checker of this checkout's document, generated once per test file. */
export function openApiChecker(): Promise<OpenApiChecker> {
  checker ??= generateDocument().then(({ document }) => new OpenApiChecker(document));
  return checker;
}

export async function checkResponse(request: CheckedRequest, response: CheckedResponse): Promise<void> {
  (await openApiChecker()).check(request, response);
}
