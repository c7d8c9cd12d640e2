// ESLint flat config with typescript-eslint (type-aware rules stay off to keep `npm run lint` fast).
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// eslint-plugin-import reads TypeScript with the TypeScript parser and resolves through
// eslint-import-resolver-typescript, which maps a `.js` specifier (the server's and shared's NodeNext style)
// to the `.ts` file it names; the node resolver alone would leave those unresolved, and
// import/no-cycle and the path zones would silently see nothing.
const importSettings = {
  'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  'import/resolver': {
    typescript: {
      project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/shared/tsconfig.json'].map((project) =>
        path.join(import.meta.dirname, project),
      ),
      noWarnOnMultipleProjects: true,
    },
    node: { extensions: ['.ts', '.tsx', '.js'] },
  },
};

// ---------------------------------------------------------------------------------------------------
// Server import boundaries (apps/server/src). The arrows run one way:
//   server.ts → app.ts (Fastify set-up and lifecycle) → api-routes.ts (only registers routes);
//   services.ts + mfa/index.ts are the one composition root: they build every collaborator;
//   modules/*, idp/ → mfa/ (port + adapters) → auth/ → lib/ → db/
// - the composition root: only server.ts imports app.ts, only app.ts imports api-routes.ts, and only
//   app.ts and cli/ (a command-line entry that needs the collaborators without the HTTP server) import
//   services.ts; api-routes.ts takes the built services as a type; nothing imports server.ts. Tests are
//   excepted (they build the app themselves);
// - db/ imports nothing from lib/ (lib/ may import db/); lib/ and db/ import nothing from auth/, mfa/,
//   modules/, idp/; auth/ imports nothing from mfa/, modules/, idp/;
// - mfa/ imports no modules/, idp/ (nor auth/: the port needs nothing from it); mfa/common (what the
//   adapters share) imports no adapter; one adapter (builtin/, duo/) never imports the other;
// - modules and idp use mfa/ through the port (mfa/port, mfa/errors, mfa/index), never an adapter's files;
// - between modules: a module may use another module's service (`*.service.ts`, and the types and pure
//   helpers next to it) and the shared helpers in modules/common; modules/admin/common (what the admin
//   modules share) is for modules/admin/** alone (and services.ts, which builds it); never another
//   module's routes (`*.routes.ts`, `*-routes.ts`: only the composition root registers routes) and
//   another module's repository only as a type (the instance is built in the composition root);
// - nothing in src/ imports test support from apps/server/test/ (only *.test.ts files may);
// - no import cycles (import/no-cycle, over the server, the web and shared alike, see below).
// The specifier rules are one `no-restricted-imports` pattern list per folder (flat config: a later block
// replaces the rule for its files, so each block repeats the patterns that still apply); the rules about
// where a file sits (the composition root, db/ and lib/, admin/common) are `import/no-restricted-paths`
// zones on resolved files. Proven by apps/server/test/import-boundaries.test.ts.
// ---------------------------------------------------------------------------------------------------
const SERVER = 'apps/server/src';
const serverRule = (message, regex, extra = {}) => ({ regex, message, ...extra });
const NO_TEST_SUPPORT = serverRule('Production code must not import test support (apps/server/test).', '^(\\.\\./)+test/');
const NO_UPWARD = (...folders) =>
  serverRule(
    `This layer must not import ${folders.join('/, ')}/ (the arrows run modules → mfa → auth → lib → db).`,
    `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  );
// The configuration reads lib/ (the secret box parses its keys): lib/ and db/ take the values they need as
// arguments, never the configuration itself.
const NO_CONFIG = serverRule(
  'lib/ and db/ take the settings they need as arguments: the configuration (config*.ts) sits above them.',
  '^(\\.\\./)+config[a-z.-]*\\.js$',
);
const NO_ADAPTER = serverRule(
  'Use the MFA provider through its port (mfa/port, mfa/errors, mfa/index), not an adapter’s files.',
  '^(\\.\\./)+mfa/(builtin|duo|common)/',
);
// Every routes file (`x.routes.ts`, `x-routes.ts`) outside the importer's folder. Exempt: the shared route
// plumbing in modules/common (self-routes.ts: the self-service hooks every self-service module installs)
// and modules/admin/common (admin-routes.ts: the same for the admin modules); they register no routes.
const NO_OTHER_ROUTES = serverRule(
  'Only the composition root (app.ts, api-routes.ts) registers routes: never import another module’s routes.',
  '^\\.\\./(?!(\\.\\./)*(modules/)?(admin/)?common/[^/]+$).*[.-]routes\\.js$',
);
const NO_OTHER_REPOSITORY = serverRule(
  'Another module’s repository is its own business: use its service, or take the repository as a type (the composition root builds it).',
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
    [`${SERVER}/api-routes.ts`],
    [
      NO_TEST_SUPPORT,
      serverRule('api-routes.ts only registers routes: it takes the built services as a type (import type).', '^\\./services\\.js$', {
        allowTypeImports: true,
      }),
    ],
  ),
  serverBoundaries(
    [`${SERVER}/lib/**/*.ts`, `${SERVER}/db/**/*.ts`],
    [NO_TEST_SUPPORT, NO_UPWARD('modules', 'mfa', 'idp', 'auth'), NO_CONFIG],
  ),
  serverBoundaries([`${SERVER}/auth/**/*.ts`], [NO_TEST_SUPPORT, NO_UPWARD('modules', 'mfa', 'idp')]),
  serverBoundaries([`${SERVER}/mfa/**/*.ts`], [NO_TEST_SUPPORT, NO_UPWARD('modules', 'idp', 'auth')]),
  serverBoundaries(
    [`${SERVER}/mfa/common/**/*.ts`],
    [
      NO_TEST_SUPPORT,
      NO_UPWARD('modules', 'idp', 'auth'),
      serverRule('mfa/common is what the adapters share: it imports no adapter.', '^\\.\\./(builtin|duo)/'),
    ],
  ),
  serverBoundaries(
    [`${SERVER}/mfa/builtin/**/*.ts`],
    [NO_TEST_SUPPORT, NO_UPWARD('modules', 'idp', 'auth'), serverRule('One adapter never imports another.', '^\\.\\./duo/')],
  ),
  serverBoundaries(
    [`${SERVER}/mfa/duo/**/*.ts`],
    [NO_TEST_SUPPORT, NO_UPWARD('modules', 'idp', 'auth'), serverRule('One adapter never imports another.', '^\\.\\./builtin/')],
  ),
  serverBoundaries([`${SERVER}/modules/**/*.ts`], [NO_TEST_SUPPORT, NO_UPWARD('idp'), NO_ADAPTER, NO_OTHER_ROUTES, NO_OTHER_REPOSITORY]),
  serverBoundaries([`${SERVER}/idp/**/*.ts`], [NO_TEST_SUPPORT, NO_ADAPTER, NO_OTHER_ROUTES, NO_OTHER_REPOSITORY]),
  {
    files: [`${SERVER}/**/*.ts`],
    ignores: [`${SERVER}/**/*.test.ts`],
    plugins: { import: importPlugin },
    settings: importSettings,
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: [`${SERVER}/!(server).ts`, `${SERVER}/*/**`],
              from: `${SERVER}/app.ts`,
              message: 'Only server.ts imports app.ts (server.ts → app.ts → api-routes.ts).',
            },
            {
              target: `${SERVER}/**`,
              from: `${SERVER}/server.ts`,
              message: 'server.ts is the entry point: nothing imports it.',
            },
            {
              target: [`${SERVER}/!(app).ts`, `${SERVER}/*/**`],
              from: `${SERVER}/api-routes.ts`,
              message: 'Only app.ts imports api-routes.ts (server.ts → app.ts → api-routes.ts).',
            },
            {
              target: [`${SERVER}/!(app|api-routes).ts`, `${SERVER}/!(cli)/**`],
              from: `${SERVER}/services.ts`,
              message:
                'Only app.ts (and cli/, another entry) imports services.ts, the composition root: take what you need as an argument.',
            },
            {
              target: `${SERVER}/db`,
              from: `${SERVER}/lib`,
              message: 'db/ imports nothing from lib/ (lib/ may import db/): take a listener instead.',
            },
            {
              target: [`${SERVER}/!(services|services.units).ts`, `${SERVER}/!(modules)/**`, `${SERVER}/modules/!(admin)/**`],
              from: `${SERVER}/modules/admin/common`,
              message:
                'modules/admin/common is what the admin modules share: only modules/admin/** (and services.ts with services.units.ts, which build it) import it.',
            },
          ],
        },
      ],
    },
  },
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
  settings: importSettings,
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

// ---------------------------------------------------------------------------------------------------
// Whole-tree rules over the production files of apps/server/src, apps/web/src and packages/shared/src
// (not tests, not test support):
// - import/no-cycle: no file reaches itself through its imports. The fixture pair in
//   apps/server/test/fixtures/lint/ is a cycle on purpose: ignored by `eslint .`, linted by the boundary
//   test (ESLint's `ignore: false`) under this same block to prove the rule fires. No maxDepth: the rule's
//   cost is reading the import graph once (it finds the strongly connected components, then looks only
//   inside one), not the depth of the search; measured, maxDepth 2 saved nothing.
// - max-lines: a file over 300 lines is a module waiting to be split; split it rather than raise the cap.
// ---------------------------------------------------------------------------------------------------
const PRODUCTION_FILES = [`${SERVER}/**/*.ts`, `${WEB_SRC}/**/*.{ts,tsx}`, 'packages/shared/src/**/*.ts'];
// Tests and the test support beside them in src/ (apps/web/src/test, apps/web/src/lib/test, fixtures).
const NOT_PRODUCTION = ['**/*.test.{ts,tsx}', '**/src/**/test/**', '**/src/**/fixtures/**', '**/src/**/test-fixtures.ts'];
const LINT_FIXTURES = 'apps/server/test/fixtures/lint/**';
const wholeTreeRules = [
  {
    files: [...PRODUCTION_FILES, `${LINT_FIXTURES}/*.ts`],
    ignores: NOT_PRODUCTION,
    plugins: { import: importPlugin },
    settings: importSettings,
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: PRODUCTION_FILES,
    ignores: NOT_PRODUCTION,
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
      'apps/web/public/service-worker.js',
      // Broken on purpose (an import cycle): linted by apps/server/test/import-boundaries.test.ts alone.
      LINT_FIXTURES,
    ],
  },
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
    // Every lazily loaded chunk gets the specification's time-out: a chunk that never arrives shows the
    // error boundary instead of a spinner forever. React's own lazy only inside the wrapper.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/shell/lazy-with-timeout.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='react'] ImportSpecifier[imported.name='lazy']",
          message: 'Use lazyWithTimeout (shell/lazy-with-timeout.ts): every lazily loaded chunk has the 120-second time-out.',
        },
      ],
    },
  },
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  // Server import boundaries (see above).
  ...serverImportBoundaries,
  ...wholeTreeRules,
);
