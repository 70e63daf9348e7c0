/**
 * Headless Chromium for the browser tests and the bench: Debian's package at /usr/bin/chromium (or CHROMIUM_PATH),
 * never a downloaded browser, always with a fresh profile that is removed on close.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Flags for every headless run: without the networking ones Chromium calls home, and this machine has no network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Where Chromium is: CHROMIUM_PATH, else the Debian package's path. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** True when the browser is installed (browser tests skip otherwise). */
export function hasChromium(env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(chromiumPath(env));
}

/** The browser's path, or an error with a hint when it is missing. */
export function assertChromium(env: NodeJS.ProcessEnv = process.env): string {
  const exe = chromiumPath(env);
  if (!existsSync(exe)) {
    throw new Error(
      `Chromium was not found at ${exe}. Hint: install the distribution package (\`apt-get install chromium\`) ` +
        'or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  return exe;
}

/** A browser context with a fresh profile, and a close function that also deletes the profile. */
export async function launchChromium(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const executablePath = assertChromium();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'agy-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 1280, height: 900 },
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
