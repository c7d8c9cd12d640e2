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
    // The first test of a file also pays for building its application; on a loaded 2-core machine that
    // alone has taken 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each worker loads the server's modules once for all its files, not once per file (a fifth of the
    // run). Every file builds its own application, database and ports, so no state is carried over; a
    // test that changes something global (fake timers, environment, a mock) undoes it in its own hooks.
    isolate: false,
    env: { TEST_DB: 'postgres' },
  },
});
