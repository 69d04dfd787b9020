import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';

/**
 * A migrated, empty database made once per suite run (scripts/test-all.ts), which every test app starts from instead of
 * running the migrations again (test/helpers.ts makeApp): SQLite copies the file, PostgreSQL `CREATE DATABASE … TEMPLATE`.
 * Its name reaches the test files in TEST_TEMPLATE; a file run on its own, without it, migrates each app as before.
 */
export interface Template {
  env: { TEST_TEMPLATE: string };
  drop(): Promise<void>;
}

/** SQLite when `databaseUrl` is undefined (a file), else a database of that PostgreSQL server (its name). */
export async function makeTemplate(databaseUrl: string | undefined): Promise<Template> {
  if (!databaseUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-template-'));
    const database = openDatabase({ dataDir: dir });
    await migrate(database.db, database.dialect);
    await database.close(); // checkpoints the WAL into the file: the copy is the whole database
    return { env: { TEST_TEMPLATE: path.join(dir, 'faceadmin.sqlite') }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `template_${randomBytes(6).toString('hex')}`;
  await onServer(databaseUrl, `CREATE DATABASE ${name}`);
  const u = new URL(databaseUrl);
  u.pathname = `/${name}`;
  const database = openDatabase({ dataDir: os.tmpdir(), databaseUrl: u.toString() });
  await migrate(database.db, database.dialect);
  await database.close(); // a template takes no connections while it is copied
  return { env: { TEST_TEMPLATE: name }, drop: () => dropDatabase(databaseUrl, name) };
}

/**
 * Drops a test database, ending its sessions. PostgreSQL waits 5 s for the sessions it ended to go, then refuses (55006,
 * "being accessed by other users"): on a machine loaded enough for that, it is tried again a few times.
 */
export async function dropDatabase(databaseUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await onServer(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 4) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export async function onServer(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates database `name` as a copy of `template`. PostgreSQL 15 and later copy a database block by block through the
 * WAL unless asked otherwise; a test database is small (11 MB, 410 relations) and the suite's cluster runs without
 * fsync, so copying its files is about twice as fast (median 146 ms against 284, alternating, on the 2-core machine).
 */
export async function copyTemplate(databaseUrl: string, name: string, template: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    fileCopy ??= client
      .query<{ server_version_num: string }>('SHOW server_version_num')
      .then(({ rows }) => (Number(rows[0]?.server_version_num) >= 150000 ? ' STRATEGY FILE_COPY' : ''));
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}${await fileCopy}`);
  } finally {
    await client.end();
  }
}

/** The clause copyTemplate adds, asked of the server once per process (a suite runs on one server). */
let fileCopy: Promise<string> | undefined;
