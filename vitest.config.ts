import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['tests/support/cleanup.ts'],
    globalSetup: ['tests/support/postgresSetup.ts'],
    include: ['shared/**/*.test.ts', 'node/**/*.test.ts', 'store/**/*.test.ts', 'server/**/*.test.ts', 'analysis/**/*.test.ts', 'client/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A committed .only would silently skip every other test of its file: refuse it.
    allowOnly: false,
  },
});
