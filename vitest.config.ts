import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // No test reads or writes the user's archive store: in-process tests have none, and the build helpers give each
    // build a temporary one (test/helpers/build-site.ts).
    env: { ARCHIVE_STORE: 'none', ARCHIVE_STORES: '' },
    hookTimeout: 600_000,
    // One temp folder per run for the site builds that test files share (built lazily, once each).
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
