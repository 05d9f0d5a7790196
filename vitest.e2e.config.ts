import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    setupFiles: ['tests/support/cleanup.ts'],
    globalSetup: ['tests/support/postgresSetup.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
    // A committed .only would silently skip every other test of its file: refuse it.
    allowOnly: false,
  },
});
