/**
 * Spectral's `spectral:oas` ruleset (recommended rules, as `spectral lint`
 * runs it by default) over the generated document, with the one override
 * below; each override says why.
 */
import spectralCore from '@stoplight/spectral-core';
import parsersModule from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import type { OpenApiDocument } from '../../lib/openapi/document';
import { problemComponent } from '../../lib/openapi/document';

// CommonJS packages: their named exports sit on the default export under ESM.
const { Spectral, Document, Ruleset } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
const parsersAny = parsersModule as unknown as { Json?: unknown; default?: unknown };
const parsers = (parsersAny.Json ? parsersAny : parsersAny.default) as typeof import('@stoplight/spectral-parsers');

/** The name the document is linted under; overrides point into it. */
const DOCUMENT_NAME = 'openapi.json';

const OVERRIDES = [
  {
    // 405 is answered by the `$default` route's fallback (lib/http/fallback.ts) for a method no operation has,
    // so no operation can list it; the schema stays in components for clients and for the HTTP tests' checker.
    files: [`${DOCUMENT_NAME}#/components/schemas/${problemComponent('method-not-allowed')}`],
    rules: { 'oas3-unused-component': 'off' },
  },
];

export interface LintResult {
  code: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  path: string;
  message: string;
}

const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;

export async function spectralLint(document: OpenApiDocument): Promise<LintResult[]> {
  const spectral = new Spectral();
  // A ruleset needs a source for its overrides' `files`, which resolve beside it.
  spectral.setRuleset(new Ruleset({ extends: [[oas, 'recommended']], overrides: OVERRIDES } as never, { source: '/ruleset.js' }));
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), parsers.Json, `/${DOCUMENT_NAME}`));
  return results.map((result) => ({
    code: String(result.code),
    severity: SEVERITIES[result.severity],
    path: result.path.join('.'),
    message: result.message,
  }));
}
