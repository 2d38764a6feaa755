/**
 * `tsx infra/local/synthesize.ts <cacheDir> <hash> <context JSON>`: synthesizes the stack with that context into
 * the deployment cache (prepare.ts). A process of its own, so that the ~10 s of the synth do not hold the event loop
 * of a test file whose gateway is serving requests meanwhile (prepare.ts `synthesizeInBackground`).
 */
import { fileURLToPath } from 'node:url';
import { prepareDeployment } from './prepare';

const [cacheDir, hash, context] = process.argv.slice(2);
prepareDeployment(fileURLToPath(new URL('../../', import.meta.url)), cacheDir, JSON.parse(context), hash);
