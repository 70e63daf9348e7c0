/** The homes the site tests build, shared by the build and browser tests (each built once per run). */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedBuild, type SharedBuild } from './shared-build.ts';

/** The demo build: GEMINI_HOME points at an empty folder, so the build falls back to fixtures/demo (demo banner). */
export function demoBuild(): Promise<SharedBuild> {
  return sharedBuild('demo', { GEMINI_HOME: mkdtempSync(path.join(os.tmpdir(), 'agy-empty-home-')) });
}
