import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { DIALECT, freshDatabase } from '../../test/helpers.ts';
import { startS3Emulator, type S3Emulator } from '../../test/s3-emulator.ts';
import { loadConfig } from '../config.ts';
import { diskFileStore } from '../lib/files/disk.ts';
import { s3FileStore } from '../lib/files/s3.ts';
import { authorization } from '../lib/files/sigv4.ts';
import { moveFiles } from '../lib/files/move.ts';
import { FileTooLarge, readAll, type FileStore } from '../lib/files/store.ts';
import { openDatabase, type Database } from './database.ts';
import { CHUNK_BYTES, databaseFileStore } from './file-store.ts';
import { migrate } from './migrate.ts';

/**
 * The file-store contract (docs/files.md), run against every store: disk, the database (this run's dialect:
 * SQLite or, with TEST_DATABASE_URL, PostgreSQL) and an S3 bucket (test/s3-emulator.ts, which checks SigV4).
 */
const MB5 = 5 * 1024 * 1024;

/** 5 MB made as it is read, 64 KB at a time: the test itself holds no whole copy. */
function bigStream(seed: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const piece = (i: number) => Buffer.alloc(64 * 1024, (i * 31 + seed) % 251);
  for (let i = 0; i < MB5 / (64 * 1024); i++) hash.update(piece(i));
  let i = 0;
  const stream = new Readable({
    read() {
      this.push(i < MB5 / (64 * 1024) ? piece(i++) : null);
    },
  });
  return { stream, sha256: hash.digest('hex') };
}

/** Reads a stream through, hashing it, and tells the largest piece that came at once. */
async function drain(stream: Readable) {
  const hash = createHash('sha256');
  let size = 0;
  let largest = 0;
  for await (const c of stream) {
    const b = c as Buffer;
    hash.update(b);
    size += b.length;
    largest = Math.max(largest, b.length);
  }
  return { size, sha256: hash.digest('hex'), largest };
}

async function keys(store: FileStore, prefix: string) {
  const out: string[] = [];
  for await (const f of store.list(prefix)) out.push(f.key);
  return out.sort();
}

const fresh = await freshDatabase();
let database: Database;
let s3: S3Emulator;
const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-disk-'));
before(async () => {
  database = openDatabase(loadConfig({ DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent', ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) }));
  await migrate(database.db, database.dialect);
  s3 = await startS3Emulator();
  s3.maxKeys = 2; // lists come in pages: the continuation is exercised
});
after(async () => {
  await s3.close();
  await database.close();
  await fresh.drop();
  fs.rmSync(diskRoot, { recursive: true, force: true });
});

const stores: [string, () => FileStore][] = [
  ['disk', () => diskFileStore(diskRoot)],
  [`database (${DIALECT})`, () => databaseFileStore(database)],
  ['s3', () => s3FileStore({ endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: s3.region })],
];

for (const [name, make] of stores) {
  describe(`file store: ${name}`, () => {
    test('put, head, get, overwrite, delete, a missing key', async () => {
      const store = make();
      const put = await store.put('faces/7/a.jpg', Buffer.from('first'), { contentType: 'image/jpeg' });
      assert.deepEqual(put, { size: 5, sha256: createHash('sha256').update('first').digest('hex') });
      const head = await store.head('faces/7/a.jpg');
      assert.equal(head?.size, 5);
      assert.equal(head?.contentType, 'image/jpeg');
      assert.ok(Math.abs(head.modifiedAt - Date.now()) < 60_000, 'modified now');
      assert.equal((await readAll(store, 'faces/7/a.jpg'))?.toString(), 'first');

      await store.put('faces/7/a.jpg', Readable.from([Buffer.from('second, '), Buffer.from('longer')]));
      const got = await store.get('faces/7/a.jpg');
      assert.equal(got?.size, 14);
      assert.equal((await drain(got.stream)).size, 14);
      assert.equal((await readAll(store, 'faces/7/a.jpg'))?.toString(), 'second, longer');

      await store.put('empty.bin', Buffer.alloc(0));
      assert.equal((await readAll(store, 'empty.bin'))?.length, 0);

      await store.delete('faces/7/a.jpg');
      assert.equal(await store.get('faces/7/a.jpg'), undefined);
      assert.equal(await store.head('faces/7/a.jpg'), undefined);
      await store.delete('faces/7/a.jpg'); // twice: nothing to do
      assert.equal(await store.get('never/was.jpg'), undefined);
    });

    test('a 5 MB file goes in and out as a stream, never whole', async () => {
      const store = make();
      const big = bigStream(name.length);
      const put = await store.put('firmware/1/big.bin', big.stream, { maxBytes: 64 * 1024 * 1024 });
      assert.deepEqual(put, { size: MB5, sha256: big.sha256 });
      const got = await store.get('firmware/1/big.bin');
      assert.equal(got?.size, MB5);
      const read = await drain(got.stream);
      assert.equal(read.size, MB5);
      assert.equal(read.sha256, big.sha256);
      assert.ok(read.largest <= Math.max(CHUNK_BYTES, 1024 * 1024), `pieces of at most 1 MB, got ${read.largest}`);
      if (store.kind === 'database') {
        const chunks = await database.db
          .selectFrom('file_chunks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('key', '=', 'firmware/1/big.bin')
          .executeTakeFirst();
        assert.equal(Number(chunks?.n), MB5 / CHUNK_BYTES, 'kept in 256 KB chunks');
      }
      await store.delete('firmware/1/big.bin');
    });

    test('a file past its cap is refused and nothing is stored; the old one stays', async () => {
      const store = make();
      await store.put('sites/3/plan.png', Buffer.from('old plan'));
      await assert.rejects(store.put('sites/3/plan.png', bigStream(1).stream, { maxBytes: 1024 * 1024 }), FileTooLarge);
      assert.equal((await readAll(store, 'sites/3/plan.png'))?.toString(), 'old plan');
      await assert.rejects(store.put('sites/3/other.png', Buffer.alloc(2048), { maxBytes: 1024 }), FileTooLarge);
      assert.equal(await store.head('sites/3/other.png'), undefined);
      if (store.kind === 'disk') assert.deepEqual(fs.readdirSync(path.join(diskRoot, 'sites', '3')), ['plan.png'], 'no temp file left');
    });

    test('list by folder, and keys that could escape are refused', async () => {
      const store = make();
      for (const k of ['l/1/a.jpg', 'l/1/b.jpg', 'l/1/c.jpg', 'l/2/a.jpg', 'l10/a.jpg']) await store.put(k, Buffer.from(k));
      assert.deepEqual(await keys(store, 'l/1/'), ['l/1/a.jpg', 'l/1/b.jpg', 'l/1/c.jpg']);
      assert.deepEqual(await keys(store, 'l/'), ['l/1/a.jpg', 'l/1/b.jpg', 'l/1/c.jpg', 'l/2/a.jpg']);
      const listed = [];
      for await (const f of store.list('l/2/')) listed.push(f);
      assert.equal(listed[0]?.size, 9);
      for (const bad of ['../x', 'a/../../b', '/abs', 'a//b', 'a/./b', '']) await assert.rejects(store.put(bad, Buffer.from('x')), /invalid file key/);
    });
  });
}

test('SigV4 signs the published AWS example (GET Object) as AWS does', () => {
  const auth = authorization(
    { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' },
    {
      method: 'GET',
      path: '/test.txt',
      query: {},
      headers: {
        host: 'examplebucket.s3.amazonaws.com',
        range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date': '20130524T000000Z',
      },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    },
  );
  assert.equal(
    auth,
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
});

test('the bucket refuses a request signed with another secret, and the store says so', async () => {
  const wrong = s3FileStore({ endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: 'not-the-secret', region: s3.region });
  const before = s3.rejected;
  await assert.rejects(wrong.put('x/y.jpg', Buffer.from('x')), /S3 PutObject answered 403 SignatureDoesNotMatch/);
  await assert.rejects(wrong.get('x/y.jpg'), /403/);
  assert.equal(s3.rejected, before + 2);
});

test('files:move copies a DATA_DIR into the database and the bucket, resumable and idempotent', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-move-'));
  try {
    const disk = diskFileStore(root);
    await disk.put('faces/1/aa.jpg', Buffer.from('face'));
    await disk.put('punches/1/2/20260101080000-7.jpg', Buffer.from('shot'));
    await disk.put('firmware/1/big.bin', bigStream(3).stream);
    fs.writeFileSync(path.join(root, 'faceadmin.sqlite'), 'not a file of the store');
    fs.mkdirSync(path.join(root, 'keys'));
    fs.writeFileSync(path.join(root, 'keys', 'device-secrets.key'), 'secret');
    for (const [, make] of stores.slice(1)) {
      const target = make();
      const first = await moveFiles(disk, target);
      assert.deepEqual([first.seen, first.copied, first.skipped, first.failed, first.bytes], [3, 3, 0, 0, 8 + MB5], target.kind);
      assert.equal((await readAll(target, 'punches/1/2/20260101080000-7.jpg'))?.toString(), 'shot');
      assert.equal((await target.head('firmware/1/big.bin'))?.size, MB5);
      assert.equal(await target.head('keys/device-secrets.key'), undefined, 'only the stored files move');
      // run again: nothing to copy; a file changed since is copied again
      await disk.put('faces/1/aa.jpg', Buffer.from('a new face'));
      const again = await moveFiles(disk, target);
      assert.deepEqual([again.copied, again.skipped], [1, 2], target.kind);
      assert.equal((await readAll(target, 'faces/1/aa.jpg'))?.toString(), 'a new face');
      for (const k of ['faces/1/aa.jpg', 'punches/1/2/20260101080000-7.jpg', 'firmware/1/big.bin']) await target.delete(k);
      await disk.put('faces/1/aa.jpg', Buffer.from('face'));
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
