/** The homes the site tests build, shared by the build and browser tests (each built once per run). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { projectRoot } from './build-site.ts';
import { sharedBuild, type SharedBuild } from './shared-build.ts';

/** Every session of fixtures/demo as the reader returns it (what the demo build's pages are made from). */
export async function readDemoSessions(): Promise<Session[]> {
  const discovery = await discoverSessions({ geminiHome: path.join(projectRoot, 'fixtures', 'demo') });
  return Promise.all(discovery.sessions.map((ref) => readSession(ref)));
}

/** The demo build: GEMINI_HOME points at an empty folder, so the build falls back to fixtures/demo (demo banner). */
export async function demoBuild(): Promise<SharedBuild> {
  const emptyHome = mkdtempSync(path.join(os.tmpdir(), 'agy-empty-home-'));
  try {
    return await sharedBuild('demo', { GEMINI_HOME: emptyHome });
  } finally {
    rmSync(emptyHome, { recursive: true, force: true });
  }
}
