/** The service's own routes: health, this document, its page, the console. */
import * as z from 'zod/mini';
import { CONSOLE_ASSET_NAME } from '../../console/files';
import type { OperationNameOf } from '../../routes';
import * as responses from '../../schemas/responses';
import type { OperationDoc } from './shared';

export const serviceDocs = {
  health: { responses: { 200: { description: 'The service answers.', schema: responses.health } } },
  openapi: {
    description: 'This document: OpenAPI 3.1, generated from the route table and the request and response schemas.',
    responses: { 200: { description: 'The OpenAPI document.', schema: responses.openApiDocument } },
  },
  docs: {
    description: 'A page that renders this document with Redoc, served by the service itself (no CDN).',
    responses: { 200: { description: 'The page.', media: { type: 'text/html', schema: { type: 'string' } } } },
  },
  docsRenderer: {
    description: "Redoc's standalone bundle, as packaged on the npm registry; gzip-encoded when the client accepts it.",
    responses: { 200: { description: 'The script.', media: { type: 'text/javascript', schema: { type: 'string' } } } },
  },
  console: {
    description:
      'The admin console: a page that signs a person in (a pasted token, the link `npm start` prints, or the OAuth login of the deployment) and then uses this API as any client does. Its Content-Security-Policy allows nothing from elsewhere.',
    responses: { 200: { description: 'The page.', media: { type: 'text/html', schema: { type: 'string' } } } },
  },
  consoleAssets: {
    description: "One of the console's scripts or styles, named by its content hash; gzip-encoded when the client accepts it.",
    params: z.object({ asset: z.string().check(z.regex(CONSOLE_ASSET_NAME)) }),
    parameters: { asset: 'The file, as the console page links it.' },
    parameterExamples: { asset: 'index-Bx8k2Q1c.js' },
    responses: { 200: { description: 'The file.', media: { type: 'text/javascript', schema: { type: 'string' } } } },
    problems: ['not-found'],
  },
} satisfies Record<OperationNameOf<'Service'>, OperationDoc>;
