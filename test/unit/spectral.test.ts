/** Spectral's `spectral:oas` ruleset over the generated document: no error, warning, info or hint. */
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../../lib/openapi/generate';
import { spectralLint } from '../support/spectral';

describe('Spectral (spectral:oas)', () => {
  it('finds nothing in the generated document', async () => {
    const { document } = await generateDocument({ strict: true });
    expect(await spectralLint(document)).toEqual([]);
  }, 60_000);

  it('finds what it should in a document that breaks its rules (the run is real)', async () => {
    const { document } = await generateDocument({ strict: true });
    const broken = structuredClone(document);
    delete (broken.info as Record<string, unknown>).contact;
    const [path] = Object.keys(broken.paths);
    const operation = Object.values(broken.paths[path])[0] as Record<string, unknown>;
    delete operation.description;
    operation.security = [{ bearerAuth: ['admin/read'] }];
    const codes = (await spectralLint(broken)).map((result) => `${result.severity} ${result.code}`);
    expect(codes.sort()).toEqual(['warning info-contact', 'warning oas3-operation-security-defined', 'warning operation-description']);
  }, 60_000);
});
