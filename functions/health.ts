import { operation } from '../lib/http/operation';

export const handler = operation({ operationId: 'health' }, async () => ({ body: { status: 'ok' } }));
