import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The layer rules of docs/architecture.md are lint rules; these cases prove that each would fail a change
 * that breaks it (an existing file's path, with an offending import added to its text).
 */
const root = path.resolve(import.meta.dirname, '../../..');
// The layer rules need no types: without the type-aware rules (and the TypeScript program they build for each file)
// the cases take seconds, not minutes. `npm run check` lints with all of them.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

async function messagesOf(file: string, extraImport: string): Promise<string[]> {
  const filePath = path.join(root, file);
  const text = `${extraImport}\n${fs.readFileSync(filePath, 'utf8')}`;
  const [r] = await eslint.lintText(text, { filePath });
  return (r?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

const cases: [string, string, string, RegExp][] = [
  [
    'a feature importing a protocol folder',
    'apps/server/src/modules/punches/punches.service.ts',
    "import { parseAttlog } from '../../gateways/zk-push/codec.ts';",
    /no-restricted-imports.*protocol folder/,
  ],
  [
    'db importing a module',
    'apps/server/src/db/migrate.ts',
    "import { notify } from '../modules/messages/messages.service.ts';",
    /no-restricted-imports.*db\//,
  ],
  [
    'a plugin importing a module',
    'apps/server/src/plugins/envelope.ts',
    "import { adminsRepository } from '../modules/auth/admins.repository.ts';",
    /no-restricted-imports.*plugins\//,
  ],
  [
    'a gateway importing a module',
    'apps/server/src/gateways/zk-push/codec.ts',
    "import { notify } from '../../modules/messages/messages.service.ts';",
    /no-restricted-imports/,
  ],
  ['a module importing the app', 'apps/server/src/modules/logs/logs.routes.ts', "import type { Modules } from '../../app.ts';", /no-restricted-imports/],
  ['ui importing a feature', 'apps/web/src/ui/format.ts', "import { usePersons } from '../features/persons/api.ts';", /no-restricted-imports.*ui\//],
  [
    'a console feature importing the shell',
    'apps/web/src/features/logs/api.ts',
    "import { ROUTE_TABLE } from '../../app/routes/routeTable.ts';",
    /no-restricted-imports.*features never import the shell/,
  ],
  [
    "the console's lib importing a feature",
    'apps/web/src/lib/session.ts',
    "import { usePersons } from '../features/persons/api.ts';",
    /no-restricted-imports.*lib\//,
  ],
  [
    "the console's lib importing the shell",
    'apps/web/src/lib/tags.ts',
    "import { findRoute } from '../app/routes/routeTable.ts';",
    /no-restricted-imports.*lib\//,
  ],
  [
    'a transaction opened past db/transaction.ts',
    'apps/server/src/modules/departments/departments.service.ts',
    'export const raw = (db: import("kysely").Kysely<object>) => db.transaction().execute(async () => 1);',
    /no-restricted-syntax.*transaction\(db, fn\)/,
  ],
];

// Nothing here touches a database: it runs in the suite's SQLite pass only.
const skip = process.env.TEST_DATABASE_URL ? 'database-independent (runs on the SQLite pass)' : false;
for (const [label, file, extra, expected] of cases) {
  test(`lint refuses ${label}`, { skip }, async () => {
    const before = await messagesOf(file, '');
    assert.ok(!before.some((m) => expected.test(m)), `the file as it is passes: ${before.join('; ')}`);
    const after = await messagesOf(file, extra);
    assert.ok(
      after.some((m) => expected.test(m)),
      `expected ${expected} among: ${after.join('; ')}`,
    );
  });
}
