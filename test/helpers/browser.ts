/**
 * Headless Chromium (the Debian package at /usr/bin/chromium; never downloaded) for browser tests, with a fresh
 * profile in a temp folder that is removed on close.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Chromium is expected. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when the browser is installed (tests skip otherwise). */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** A browser context plus a close function that also deletes the profile. */
export async function launchBrowser(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'agy-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
