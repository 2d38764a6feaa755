/**
 * The local stack's API tokens, kept with its data. `npm start` makes a write
 * and a read token when ADMIN_API_TOKEN / ADMIN_API_READ_TOKEN are unset and
 * keeps them in `<data dir>/tokens.json` (mode 0600), so that a restart on the
 * same data keeps saved `TOKEN=` commands and open console tabs working; a new
 * data directory gets new ones. A token set in the environment wins and is
 * never written down. `npm run seed` reads the write token from the same file.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TOKENS_FILE_NAME = 'tokens.json';

/** Where `npm start` keeps its data: LOCAL_DATA_DIR, else `.local/` in the checkout. */
export function localDataDir(env: NodeJS.ProcessEnv, projectRoot: string): string {
  return resolve(env.LOCAL_DATA_DIR?.trim() || resolve(projectRoot, '.local'));
}

export const tokensFile = (dataDir: string) => join(dataDir, TOKENS_FILE_NAME);

/** Where a token came from: the environment, the data directory's file, or made at this start. */
export type TokenOrigin = 'environment' | 'kept' | 'new';

export interface LocalToken {
  value: string;
  origin: TokenOrigin;
}

export interface LocalTokens {
  write: LocalToken;
  read: LocalToken;
  /** The file made tokens are kept in. */
  file: string;
}

interface KeptTokens {
  write?: string;
  read?: string;
}

/** A mistake in the data directory's tokens file: said in one line. */
export class TokensFileError extends Error {}

const TOKEN_PATTERN = /^[\x21-\x7e]{16,512}$/;

function readKept(file: string): KeptTokens | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TokensFileError(`${file} cannot be read: ${(error as Error).message}`);
  }
  let kept: unknown;
  try {
    kept = JSON.parse(text);
  } catch {
    kept = undefined;
  }
  const valid = (value: unknown) => value === undefined || (typeof value === 'string' && TOKEN_PATTERN.test(value));
  if (typeof kept !== 'object' || kept === null || !valid((kept as KeptTokens).write) || !valid((kept as KeptTokens).read)) {
    throw new TokensFileError(`${file} is not the tokens file npm start writes; delete it to have new tokens made`);
  }
  return { write: (kept as KeptTokens).write, read: (kept as KeptTokens).read };
}

/** Written whole or not at all (a new file renamed over the old), readable by its owner only. */
function writeKept(dataDir: string, file: string, kept: KeptTokens): void {
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  renameSync(draft, file);
}

const makeToken = () => randomBytes(32).toString('base64url');

/**
 * The tokens `npm start` serves with: each from the environment if set there, else the one kept in the data
 * directory, else a new one, which is then kept there for the next start.
 */
export function localTokens(dataDir: string, env: NodeJS.ProcessEnv): LocalTokens {
  const file = tokensFile(dataDir);
  const kept = readKept(file) ?? {};
  const choose = (fromEnv: string | undefined, fromFile: string | undefined): LocalToken => {
    if (fromEnv) return { value: fromEnv, origin: 'environment' };
    if (fromFile) return { value: fromFile, origin: 'kept' };
    return { value: makeToken(), origin: 'new' };
  };
  const write = choose(env.ADMIN_API_TOKEN?.trim(), kept.write);
  const read = choose(env.ADMIN_API_READ_TOKEN?.trim(), kept.read);
  if (write.origin === 'new' || read.origin === 'new') {
    writeKept(dataDir, file, {
      write: write.origin === 'new' ? write.value : kept.write,
      read: read.origin === 'new' ? read.value : kept.read,
    });
  }
  return { write, read, file };
}

/** The write token `npm start` keeps for this data directory, if it made one. */
export function keptWriteToken(dataDir: string): string | undefined {
  return readKept(tokensFile(dataDir))?.write;
}
