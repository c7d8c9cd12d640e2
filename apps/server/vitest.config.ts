import { defineProject } from 'vitest/config';

/** Server unit and integration tests on PGlite (a fresh database per test file). */
export default defineProject({
  test: {
    name: 'server',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { TEST_DB: 'pglite' },
  },
});
