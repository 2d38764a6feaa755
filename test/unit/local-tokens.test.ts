/**
 * The local stack's tokens (infra/local/tokens.ts): made once per data directory and kept there, readable by
 * its owner only, the same at the next start, new for a new directory, and never written when the environment
 * sets them.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keptWriteToken, localTokens, tokensFile, TokensFileError } from '../../infra/local/tokens';

const made: string[] = [];
function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-tokens-'));
  made.push(dir);
  return join(dir, 'data'); // not there yet, as on a first start
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('local tokens', () => {
  it('are made for a new data directory, kept there with mode 0600, and the same at the next start', () => {
    const dataDir = newDataDir();
    const first = localTokens(dataDir, {});
    expect(first.write.origin).toBe('new');
    expect(first.read.origin).toBe('new');
    expect(first.write.value).not.toBe(first.read.value);
    expect(statSync(tokensFile(dataDir)).mode & 0o777).toBe(0o600);

    const again = localTokens(dataDir, {});
    expect(again.write).toEqual({ value: first.write.value, origin: 'kept' });
    expect(again.read).toEqual({ value: first.read.value, origin: 'kept' });
    expect(keptWriteToken(dataDir)).toBe(first.write.value);

    const elsewhere = localTokens(newDataDir(), {});
    expect(elsewhere.write.origin).toBe('new');
    expect(elsewhere.write.value).not.toBe(first.write.value);
  });

  it('take the environment first, never write its tokens down, and keep what was made before for later', () => {
    const dataDir = newDataDir();
    const onlyWrite = localTokens(dataDir, { ADMIN_API_TOKEN: ' from-the-environment-1 ' });
    expect(onlyWrite.write).toEqual({ value: 'from-the-environment-1', origin: 'environment' });
    expect(onlyWrite.read.origin).toBe('new');
    expect(readFileSync(tokensFile(dataDir), 'utf8')).not.toContain('from-the-environment-1');
    expect(keptWriteToken(dataDir)).toBeUndefined();

    const both = localTokens(dataDir, { ADMIN_API_TOKEN: 'from-the-environment-1', ADMIN_API_READ_TOKEN: 'read-from-the-environment' });
    expect(both.read).toEqual({ value: 'read-from-the-environment', origin: 'environment' });

    const unset = localTokens(dataDir, {});
    expect(unset.read).toEqual({ value: onlyWrite.read.value, origin: 'kept' });
    expect(unset.write.origin).toBe('new');
    expect(keptWriteToken(dataDir)).toBe(unset.write.value);
  });

  it('refuse a file they did not write, saying how to start over', () => {
    const dataDir = newDataDir();
    localTokens(dataDir, {});
    writeFileSync(tokensFile(dataDir), '{"write": 42}');
    expect(() => localTokens(dataDir, {})).toThrow(TokensFileError);
    expect(() => keptWriteToken(dataDir)).toThrow(/delete it to have new tokens made/);
  });
});
