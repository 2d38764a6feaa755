/**
 * Debian's Chromium, driven by playwright-core: the docs page, the report
 * e-mail and the console are tested in it. Needs `chromium` on PATH (or
 * CHROMIUM_PATH); .ci/run installs it with apt.
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('The browser tests need Chromium: `sudo apt-get install chromium` (or set CHROMIUM_PATH).');
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--disable-gpu'] });
}
