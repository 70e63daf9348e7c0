import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { slowFirst } from './test/helpers/slow-first.ts';

/** Tests in test/site/ that build no site (the loader, the detail spill, an unbuilt session, Astro's temp files). */
const SITE_TESTS_THAT_BUILD_NOTHING = ['loader.test.ts', 'detail.test.ts', 'unbuilt-session.test.ts', 'astro-temp-files.test.ts'];

/**
 * Test files that build a site (the real `npm run build`, via test/helpers/build-site.ts or scripts/build.ts), drive
 * a browser, or read stress inputs of many MB: `npm test` runs them, `npm run test:quick` (`AGY_TEST_QUICK=1`) leaves
 * them out for the inner loop. A file missing here that builds or launches a browser fails under test:quick (the
 * helpers refuse), so the list cannot silently go stale.
 */
export const SLOW_TESTS = [
  'test/browser/**',
  // Every site test but those that build nothing (a new one is slow until listed there).
  ...readdirSync(path.join(import.meta.dirname, 'test', 'site'))
    .filter((name) => name.endsWith('.test.ts') && !SITE_TESTS_THAT_BUILD_NOTHING.includes(name))
    .map((name) => `test/site/${name}`),
  'test/audit/build.test.ts',
  'test/conversation/reading-site.test.ts',
  'test/conversation/session-page.test.ts',
  'test/host/servers.test.ts',
  'test/host/sso.test.ts',
  // npm pack, npm install -g, then the installed bin builds the demo.
  'test/host/package.test.ts',
  'test/safety/fifo-swap.test.ts',
  'test/safety/hostile-site.test.ts',
  'test/safety/prose-passwords-real.test.ts',
  'test/safety/redact-site.test.ts',
  'test/store/archive-build.test.ts',
  'test/store/numbers.test.ts',
  'test/store/reliability.test.ts',
  // Stress inputs: a 50 MB hostile home; garbage transcripts of many MB read by the archive script.
  'test/safety/hostile-reader.test.ts',
  'test/store/bounds.test.ts',
];

const quick = process.env.AGY_TEST_QUICK === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(quick ? SLOW_TESTS : [])],
    // Vitest's default is one worker fewer than the cores: on a 2-core machine one file at a time, the core idle
    // while a file waits for the build or browser it started. One more worker than cores overlaps those waits: with
    // two on 2 cores, a whole `.ci/run` used 156% CPU of 200% (user+sys 746 s in 7:56), a file waiting for a shared
    // build or a page holding a core's worth of time idle.
    maxWorkers: os.availableParallelism() + 1,
    testTimeout: 60_000,
    // No test reads or writes the user's archive store: in-process tests have none, and the build helpers give each
    // build a temporary one (test/helpers/build-site.ts).
    env: { ARCHIVE_STORE: 'none', ARCHIVE_STORES: '' },
    hookTimeout: 600_000,
    // Slow files start first, so the run does not end on one worker finishing a build (test/helpers/slow-first.ts).
    sequence: { sequencer: slowFirst(SLOW_TESTS) },
    // The run's own TMPDIR and HOME, the shared site builds (built lazily, once each), and the check that no test
    // left a temp folder behind.
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
