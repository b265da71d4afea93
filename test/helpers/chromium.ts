/**
 * chromium — launch the Debian `chromium` headless through playwright-core, the one way every browser test does.
 *
 * The binary is found on PATH (CHROMIUM_PATH overrides); a missing one is a failure with the install hint, not a
 * skip, because CI installs it (test/setup/install-tools.sh). The flags keep Chromium off the network: this
 * machine's closed network refuses its background connections otherwise.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The Debian `chromium` on PATH, or CHROMIUM_PATH when set. */
export function findChromium(): string | undefined {
  const override = process.env.CHROMIUM_PATH;
  if (override !== undefined && override !== '') return override;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'chromium');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A headless, offline Chromium context with its profile in `profileDir`; throws when chromium is missing.
 * `extraArgs` go after the offline flags (a test's `--host-resolver-rules`, say).
 */
export async function launchChromium(
  profileDir: string,
  viewport?: { width: number; height: number },
  extraArgs: readonly string[] = [],
): Promise<BrowserContext> {
  const executablePath = findChromium();
  if (executablePath === undefined || !existsSync(executablePath)) {
    throw new Error(
      'chromium is not on PATH (or CHROMIUM_PATH): install the Debian package chromium (test/setup/install-tools.sh)',
    );
  }
  return chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
    ...(viewport === undefined ? {} : { viewport }),
  });
}
