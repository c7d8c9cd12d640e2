// ESLint flat config with typescript-eslint (type-aware rules stay off to keep `npm run lint` fast).
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------------
// Server import boundaries (apps/server/src). The arrows run one way (README, "How it fits together"):
//   app.ts (the one composition root) → modules/*, idp/ → mfa/ (port + adapters) → auth/, db/, lib/
// - lib/ and db/ import nothing from modules/, mfa/, idp/, auth/ (nor the composition root);
// - mfa/ imports no modules/, idp/, auth/; mfa/common (what the adapters share) imports no adapter;
//   one adapter (builtin/, duo/) never imports the other;
// - modules and idp use mfa/ through the port (mfa/port, mfa/errors, mfa/index), never an adapter's files;
// - between modules: a module may use another module's service (`*.service.ts`, and the types and pure
//   helpers next to it) and the shared helpers in modules/common (admin modules: modules/admin/common);
//   never another module's routes (only app.ts registers routes) and another module's repository only
//   as a type (the instance is built in app.ts);
// - nothing in src/ imports test support from apps/server/test/ (only *.test.ts files may).
// Every rule is one `no-restricted-imports` pattern list per folder (flat config: a later block
// replaces the rule for its files, so each block repeats the patterns that still apply).
// ---------------------------------------------------------------------------------------------------
const SERVER = 'apps/server/src';
const serverRule = (message, regex, extra = {}) => ({ regex, message, ...extra });
const NO_TEST_SUPPORT = serverRule('Production code must not import test support (apps/server/test).', '^(\\.\\./)+test/');
const NO_ROOT = serverRule('Only server.ts imports the composition root (app.ts).', '^(\\.\\./)+(app|server)\\.js$');
const NO_UPWARD = (...folders) =>
  serverRule(
    `This layer must not import ${folders.join('/, ')}/ (the arrows run app → modules → mfa → lib/db).`,
    `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  );
const NO_ADAPTER = serverRule(
  'Use the MFA provider through its port (mfa/port, mfa/errors, mfa/index), not an adapter’s files.',
  '^(\\.\\./)+mfa/(builtin|duo|common)/',
);
const NO_OTHER_ROUTES = serverRule('Only app.ts registers routes: never import another module’s routes.', '^\\.\\./.*\\.routes\\.js$');
const NO_OTHER_REPOSITORY = serverRule(
  'Another module’s repository is its own business: use its service, or take the repository as a type (app.ts builds it).',
  '^\\.\\./.*\\.repository\\.js$',
  { allowTypeImports: true },
);
const serverBoundaries = (files, patterns, ignores = [`${SERVER}/**/*.test.ts`]) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const serverImportBoundaries = [
  serverBoundaries([`${SERVER}/**/*.ts`], [NO_TEST_SUPPORT]),
  serverBoundaries(
    [`${SERVER}/lib/**/*.ts`, `${SERVER}/db/**/*.ts`],
    [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('modules', 'mfa', 'idp', 'auth')],
  ),
  serverBoundaries([`${SERVER}/auth/**/*.ts`], [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('modules', 'mfa', 'idp')]),
  serverBoundaries([`${SERVER}/mfa/**/*.ts`], [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('modules', 'idp', 'auth')]),
  serverBoundaries(
    [`${SERVER}/mfa/common/**/*.ts`],
    [
      NO_TEST_SUPPORT,
      NO_ROOT,
      NO_UPWARD('modules', 'idp', 'auth'),
      serverRule('mfa/common is what the adapters share: it imports no adapter.', '^\\.\\./(builtin|duo)/'),
    ],
  ),
  serverBoundaries(
    [`${SERVER}/mfa/builtin/**/*.ts`],
    [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('modules', 'idp', 'auth'), serverRule('One adapter never imports another.', '^\\.\\./duo/')],
  ),
  serverBoundaries(
    [`${SERVER}/mfa/duo/**/*.ts`],
    [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('modules', 'idp', 'auth'), serverRule('One adapter never imports another.', '^\\.\\./builtin/')],
  ),
  serverBoundaries(
    [`${SERVER}/modules/**/*.ts`],
    [NO_TEST_SUPPORT, NO_ROOT, NO_UPWARD('idp'), NO_ADAPTER, NO_OTHER_ROUTES, NO_OTHER_REPOSITORY],
  ),
  serverBoundaries([`${SERVER}/idp/**/*.ts`], [NO_TEST_SUPPORT, NO_ROOT, NO_ADAPTER, NO_OTHER_ROUTES, NO_OTHER_REPOSITORY]),
];

// ---------------------------------------------------------------------------------------------------
// Web import boundaries (apps/web/src). The layers run one way: app/ -> features/* -> lib/ -> shell/.
// - app/ (router, providers, layout) is the main application's composition root: the only place
//   that imports features.
// - A feature imports lib/, shell/ and its own files, never another feature: what two features
//   share goes to lib/, or app/ composes them (as the router hands DeviceActions to the overview).
// - lib/ may import shell/ (its contexts, the sign-out button), never features/ or app/.
// - shell/ (the spec's sign-in shell) imports none of lib/, features/ or app/; main.tsx hands it the
//   lazily loaded main application.
// main.tsx (the entry) and test/ (whole-portal test support) sit outside the layers. Proven by
// apps/web/src/import-boundaries.test.ts. The server has its own block; keep the two apart.
// ---------------------------------------------------------------------------------------------------
const WEB_SRC = 'apps/web/src';
const webFeatures = fs
  .readdirSync(path.join(import.meta.dirname, WEB_SRC, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webBoundaries = {
  files: [`${WEB_SRC}/**/*.{ts,tsx}`],
  plugins: { import: importPlugin },
  settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
  rules: {
    'import/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...webFeatures.map((feature) => ({
            target: `${WEB_SRC}/features/${feature}`,
            from: `${WEB_SRC}/features`,
            except: [`./${feature}`],
            message: 'A feature does not import another feature: move what they share to lib/, or let app/ compose them.',
          })),
          {
            target: `${WEB_SRC}/features`,
            from: `${WEB_SRC}/app`,
            message: 'Features do not import app/ (arrows run app -> features -> lib -> shell).',
          },
          {
            target: `${WEB_SRC}/lib`,
            from: [`${WEB_SRC}/features`, `${WEB_SRC}/app`],
            message: 'lib/ does not import features/ or app/ (arrows run app -> features -> lib -> shell).',
          },
          {
            target: `${WEB_SRC}/shell`,
            from: `${WEB_SRC}/lib`,
            // The shell's tests render the whole portal against lib/test's fake API (test support only).
            except: ['./test'],
            message: 'The sign-in shell does not import lib/ (arrows run app -> features -> lib -> shell).',
          },
          {
            target: `${WEB_SRC}/shell`,
            from: [`${WEB_SRC}/features`, `${WEB_SRC}/app`],
            message: 'The sign-in shell does not import features/ or app/ (arrows run app -> features -> lib -> shell).',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/test-results/**', 'apps/web/public/service-worker.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  webBoundaries,
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  // Server import boundaries (see above).
  ...serverImportBoundaries,
);
