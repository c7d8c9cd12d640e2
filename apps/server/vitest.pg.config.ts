import { defineProject } from 'vitest/config';

/**
 * The same database-backed suites on real PostgreSQL (TEST_DATABASE_URL), where races that PGlite
 * hides (it serialises every query) show up. Each test file gets a database cloned from a migrated template.
 */
export default defineProject({
  test: {
    name: 'server-pg',
    root: import.meta.dirname,
    include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts', 'src/**/*.pg.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { TEST_DB: 'postgres' },
  },
});
