import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { databaseFileStore } from '../src/db/file-store.ts';
import { s3FileStore } from '../src/lib/files/s3.ts';
import { migrate } from '../src/db/migrate.ts';
import { diskFileStore } from '../src/lib/files/disk.ts';
import { FILE_FOLDERS, moveFiles } from '../src/lib/files/move.ts';

/**
 * `npm run files:move -- --to database|s3`: copies the files of DATA_DIR (faces, capture photos, floor plans,
 * workflow files, firmware, terminal logs) into the database (DATABASE_URL) or the bucket (S3_*), with the same
 * settings the server reads (docs/files.md). Files already there with the same size are skipped: run it again to
 * resume, or once more after a last sync. DATA_DIR is left as it was. Then start the servers with FILE_STORE set.
 */
const args = process.argv.slice(2);
const at = args.indexOf('--to');
const to = at >= 0 ? args[at + 1] : undefined;
if (to !== 'database' && to !== 's3') {
  console.error('usage: npm run files:move -- --to database|s3');
  process.exit(2);
}
let config;
try {
  config = loadConfig({ ...process.env, FILE_STORE: to });
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(`Configuration error: ${e.message}`);
    process.exit(2);
  }
  throw e;
}
// the bucket needs no database: none is opened (a SQLite file is never created for it)
const database = to === 'database' ? openDatabase(config) : undefined;
try {
  if (database) await migrate(database.db, database.dialect);
  const target = to === 'database' ? databaseFileStore(database!) : s3FileStore(config.s3!);
  console.log(`moving the files of ${config.dataDir} (${FILE_FOLDERS.join(', ')}) into ${to === 's3' ? `bucket ${config.s3!.bucket}` : 'the database'}`);
  let shown = 0;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const r = await moveFiles(diskFileStore(config.dataDir), target, {
    onProgress: (p) => {
      if (Date.now() - shown < 1000) return;
      shown = Date.now();
      console.log(`  ${p.seen} files: ${p.copied} copied (${mb(p.bytes)} MB), ${p.skipped} already there, ${p.failed} failed — ${p.key}`);
    },
    onError: (key, e) => console.error(`  ${key}: ${e instanceof Error ? e.message : String(e)}`),
  });
  console.log(`done: ${r.seen} files, ${r.copied} copied (${mb(r.bytes)} MB), ${r.skipped} already there, ${r.failed} failed`);
  if (r.failed) console.log('run the command again to retry the failed files');
  else console.log(`start the servers with FILE_STORE=${to}; DATA_DIR's files are no longer read and may be archived`);
  process.exitCode = r.failed ? 1 : 0;
} finally {
  await database?.close();
}
