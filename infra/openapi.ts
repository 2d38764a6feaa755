/**
 * Writes the OpenAPI document: `tsx infra/openapi.ts [file]` (stdout without
 * a file). Fails, listing why, when any route lacks its documentation. The
 * openapi function's bundling runs it to ship the document with the function
 * (infra/bundling.ts).
 */
import { writeFileSync } from 'node:fs';
import { generateDocument } from '../lib/openapi/generate';

const target = process.argv[2];
try {
  const { document } = await generateDocument({ strict: true });
  // Compact in a file (it is served as is), readable on a terminal.
  if (target) writeFileSync(target, JSON.stringify(document));
  else process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
