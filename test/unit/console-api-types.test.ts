/** The console is typed by the contract it calls: its generated API types are those of the current OpenAPI document. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_API_TYPES_FILE, consoleApiTypes } from '../../infra/console-api-types';

describe("the console's API types", () => {
  it('are generated from the OpenAPI document as it is (else: npx tsx infra/console-api-types.ts)', async () => {
    expect(readFileSync(CONSOLE_API_TYPES_FILE, 'utf8') === (await consoleApiTypes())).toBe(true);
  });
});
