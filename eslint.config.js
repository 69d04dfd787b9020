import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The layers of docs/architecture.md, as import rules: a lower layer never imports a higher one, and
 * features never see a wire protocol. Each entry: which files, which imports they may not make, and why.
 */
const layer = (files, patterns, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] },
});
const server = (dir) => [`apps/server/src/${dir}/**/*.ts`];
const web = (dir) => [`apps/web/src/${dir}/**`];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/screenshots/**', '**/.shards/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules, a chosen subset of recommendedTypeChecked: the ones that catch real faults here
  // (a promise nobody awaits loses its error; awaiting a non-promise hides a wrong call). The no-unsafe-*
  // family is left out: JSON from devices and the database is narrowed by schemas, not by casts.
  // Types come from the three programs `npm run check` type-checks (scripts/check.ts), not from each folder's nearest
  // tsconfig.json: tools, bench and scripts import the server, and as programs of their own they made lint build the
  // server's types four times (197 s of CPU instead of 147). A file in none of them is an error here: add it to one.
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.check.json', './apps/web/tsconfig.json', './e2e/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false, arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/require-await': 'off',
    },
  },
  // node:test's test() returns a promise the runner itself awaits.
  { files: ['**/*.test.ts', 'e2e/**/*.ts'], rules: { '@typescript-eslint/no-floating-promises': 'off' } },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  // No import cycles: scripts/import-cycles.test.ts reads the import graph (a tenth of a second; eslint's import-x/no-cycle took 28 s).
  { files: ['apps/web/src/**/*.tsx', 'apps/web/src/**/*.ts'], ...reactHooks.configs.flat.recommended },
  // Writes go through db/transaction.ts, so what a module registers with afterCommit is never dropped.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/transaction.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'open transactions with transaction(db, fn) from db/transaction.ts (afterCommit needs it)',
        },
      ],
    },
  },

  // Server layers, lowest first: lib → db → plugins, gateways (ports) → modules, gateways/<protocol> → app → main, demo.
  layer(
    server('lib'),
    ['**/db/**', '**/plugins/**', '**/modules/**', '**/gateways/**', '**/jobs/**', '**/app.ts', '**/module.ts'],
    'lib/ is the lowest layer: it imports nothing of the server.',
  ),
  layer(
    server('db'),
    ['**/plugins/**', '**/modules/**', '**/gateways/**', '**/jobs/**', '**/app.ts', '**/module.ts', '**/demo/**'],
    'db/ never imports modules or anything above it.',
  ),
  layer(
    server('plugins'),
    ['**/modules/**', '**/gateways/**', '**/app.ts', '**/demo/**'],
    'plugins/ are cross-cutting: what they need of a module comes in through an interface (see plugins/auth.ts SessionLookup).',
  ),
  layer(
    server('jobs'),
    ['**/modules/**', '**/gateways/**', '**/plugins/**', '**/app.ts', '**/module.ts'],
    'jobs/ schedules work modules hand it; it knows no module.',
  ),
  layer(
    server('gateways'),
    ['**/modules/**', '**/plugins/**', '**/app.ts', '**/module.ts', '**/demo/**'],
    'a gateway speaks to features only through its port (gateways/terminal-events.ts).',
  ),
  layer(
    server('modules'),
    ['**/gateways/*/**', '**/app.ts', '**/main.ts', '**/demo/**'],
    'features never import a protocol folder (use the ports in gateways/*.ts) or the app that lists them.',
  ),

  // Console layers: lib/ (client infrastructure) and ui/ (shared widgets) → features/ → app/ (the shell: router, route
  // table, layout, providers) → main.tsx. No arrow runs back up; lib/ and ui/ may use each other (the import-cycles test still holds).
  layer(web('lib'), ['**/features/**', '**/app/**'], 'lib/ is the client infrastructure under the features: it never imports a feature or the shell.'),
  layer(web('ui'), ['**/features/**', '**/app/**'], 'ui/ holds shared widgets: it never imports a feature or the shell.'),
  layer(web('features'), ['**/app/**'], 'features never import the shell (app/): what they need of it belongs in lib/ or ui/, or comes in as a prop.'),
);
