import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's `chromium` package, which .ci/run installs; CHROMIUM_PATH points at another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags that matter on a machine with no display, GPU or network (see PERF-NOTES): headless, no
 * GPU, and none of the browser's own traffic (first-run pages, component updates, sync, QUIC), so
 * every request a test sees is the page's.
 */
const FLAGS = [
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium on a fresh profile, driven by playwright-core (no browser download). A missing
 * binary fails the test, in CI and locally alike: the page's rendering, its policy and its offline
 * assets are checked nowhere else, so a run without a browser must not pass as if they were.
 */
export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. This test drives a real browser and does not skip: CI installs ` +
        "Debian's package (.ci/run); locally run `apt-get install -y chromium`, or set CHROMIUM_PATH to a " +
        'Chromium or Chrome binary.',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'catalog-chromium-'));
  // As root, Chromium refuses to start without --no-sandbox.
  const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...sandbox],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
