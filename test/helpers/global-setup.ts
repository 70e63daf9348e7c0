/**
 * Vitest global setup: one temp folder per test run for the shared site builds (see shared-build.ts), removed at
 * the end. Builds themselves happen lazily, only for test files that need them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agy-site-run-'));
  process.env.AGY_TEST_RUN_DIR = dir;
  return () => {
    if (!process.env.AGY_KEEP_TEST_BUILDS) rmSync(dir, { recursive: true, force: true });
  };
}
