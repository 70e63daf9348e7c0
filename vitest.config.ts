import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    // One temp folder per run for the site builds that test files share (built lazily, once each).
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
