import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { hashPassword } from './crypto.ts';
import { deviceSecrets, loadDeviceKey } from './device-secret.ts';

test('device secrets: HMAC form under a key made once in DATA_DIR; no scrypt, salted, bound to the key', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fa-secret-'));
  try {
    const key = loadDeviceKey(dir);
    assert.deepEqual(loadDeviceKey(dir), key, 'the same key on the next start');
    assert.equal(fs.statSync(path.join(dir, 'keys', 'device-secrets.key')).mode & 0o777, 0o600);
    const s = deviceSecrets(key);
    const h = s.hash('Secret-1');
    assert.match(h, new RegExp(`^hmac-sha256\\$${s.keyId}\\$`));
    assert.notEqual(s.hash('Secret-1'), h, 'salted: equal passwords do not look equal');
    assert.deepEqual(await s.verify('Secret-1', h), { result: 'ok' });
    assert.deepEqual(await s.verify('Secret-2', h), { result: 'bad' });
    assert.deepEqual(
      await s.verify(
        'Secret-1',
        h.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      ),
      { result: 'bad' },
    );
    // Another key (DATA_DIR replaced) cannot vouch for it.
    const other = deviceSecrets(Buffer.alloc(32, 7));
    assert.deepEqual(await other.verify('Secret-1', h), { result: 'bad' });
    // One HMAC, not a scrypt: a check started after an old scrypt one answers first (it neither runs one nor queues
    // behind one). What a fleet of them costs is bench/breaker-reconnect.bench.ts's figure.
    const old = await hashPassword('Legacy-pw', 10);
    const answered: string[] = [];
    await Promise.all([
      s.verify('Legacy-pw', old).then((r) => answered.push(`scrypt ${r.result}`)),
      s.verify('Secret-1', h).then((r) => answered.push(`hmac ${r.result}`)),
    ]);
    assert.deepEqual(answered, ['hmac ok', 'scrypt upgrade']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('device secrets: an old scrypt hash verifies once and comes back in the HMAC form; a caller gone is not checked', async () => {
  const s = deviceSecrets(Buffer.alloc(32, 1));
  const old = await hashPassword('Legacy-pw', 10);
  const v = await s.verify('Legacy-pw', old);
  assert.equal(v.result, 'upgrade');
  assert.deepEqual(await s.verify('Legacy-pw', (v as { stored: string }).stored), { result: 'ok' });
  assert.deepEqual(await s.verify('wrong', old), { result: 'bad' });
  assert.deepEqual(await s.verify('Legacy-pw', old, () => false), { result: 'abandoned' });
  assert.deepEqual(await s.verify('Legacy-pw', 'garbage'), { result: 'bad' });
  // One scrypt at a time: ten at once all come back right.
  const all = await Promise.all(Array.from({ length: 10 }, (_, i) => s.verify(i % 2 ? 'Legacy-pw' : 'x', old)));
  assert.deepEqual(
    all.map((r) => r.result),
    Array.from({ length: 10 }, (_, i) => (i % 2 ? 'upgrade' : 'bad')),
  );
});
