/**
 * GET /v2/openapi.json, /docs and the page's script through the local
 * gateway, with no token. Api checks each answer against
 * the document, as for every HTTP test.
 */
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../../lib/openapi/generate';
import { RENDERER_FILE } from '../../lib/openapi/assets';
import { useApi } from '../support/api';

const api = useApi();

describe('API documentation', () => {
  it('serves the OpenAPI 3.1 document of every route without a token', async () => {
    const response = await api.get('/v2/openapi.json', { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body).toEqual((await generateDocument()).document);
  });

  it('serves the docs page, whose script and document are relative to it', async () => {
    for (const path of ['/docs', '/docs.json']) {
      const response = await api.get(path, { token: null });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(response.text).toContain('<redoc spec-url="v2/openapi.json"');
      expect(response.text).toContain(`<script src="docs/${RENDERER_FILE}"></script>`);
    }
  });

  it('serves the renderer from the redoc package, gzipped when the client accepts it', async () => {
    const response = await api.get(`/docs/${RENDERER_FILE}`, { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.text).toContain('Redoc');
    // node:http, not fetch: fetch would decode the body.
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      get(`${api.baseUrl}/docs/${RENDERER_FILE}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.body.length).toBeLessThan(response.text.length / 2);
    expect(gunzipSync(raw.body).toString('utf8')).toBe(response.text);
  });

  it('answers no other method on these paths: 405 with Allow', async () => {
    for (const path of ['/v2/openapi.json', '/docs', `/docs/${RENDERER_FILE}`]) {
      const response = await api.post(path, undefined, { token: null });
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow'), path).toBe('GET, HEAD');
    }
  });
});
