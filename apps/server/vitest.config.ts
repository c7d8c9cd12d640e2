import { defineProject } from 'vitest/config';

/** What the server's projects share: the PGlite one here and the PostgreSQL one (vitest.pg.config.ts). */
export const serverTestOptions = {
  root: import.meta.dirname,
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
};

/** Server unit and integration tests on PGlite (a fresh database per test file). */
export default defineProject({
  test: {
    ...serverTestOptions,
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    env: { TEST_DB: 'pglite' },
  },
});
