import path from 'node:path';
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Web unit and route-level tests (Testing Library on jsdom). */
export default defineProject({
  plugins: [react()],
  // jsdom needs no styles: antd's static stylesheet (a build-time virtual module) is an empty file here.
  resolve: { alias: { 'virtual:antd-static.css': path.join(import.meta.dirname, 'src/lib/antd/empty.css') } },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts', 'src/test/preload-main-app.ts'],
    // A screen typed into key by key under jsdom takes seconds on a busy 2-core machine (the server
    // suites run beside it): Vitest's 5 s default fails them for being slow, not wrong.
    testTimeout: 20_000,
    // Node 25 and later have a localStorage of their own on the global object (empty without
    // --localstorage-file), and Vitest then leaves jsdom's out: the workers run without Node's.
    execArgv: process.allowedNodeEnvironmentFlags.has('--webstorage') ? ['--no-webstorage'] : [],
    restoreMocks: true,
    unstubGlobals: true,
    // Pre-bundled: one module instead of hundreds for each test file that renders the main application.
    deps: { optimizer: { client: { enabled: true, include: ['antd', '@ant-design/cssinjs', '@tanstack/react-query'] } } },
  },
});
