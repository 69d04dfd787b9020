import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults: port 8080, SQLite under ./data, normal mode, SMS to the log outside production', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.databaseUrl, undefined);
  assert.match(c.dataDir, /data$/);
  assert.equal(c.runMode, 'normal');
  assert.equal(c.smsSender, 'log');
  assert.equal(c.scryptLog2N, 17);
});

test('bad values stop start-up with a message naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ RUN_MODE: 'cloud' }, /RUN_MODE/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ ADMIN_USERNAME: 'root' }, /ADMIN_USERNAME and ADMIN_PASSWORD/],
    [{ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: '123' }, /ADMIN_PASSWORD/],
    [{ ADMIN_USERNAME: 'a-very-long-account-name-indeed', ADMIN_PASSWORD: '123456' }, /ADMIN_USERNAME/],
    [{ SMS_SENDER: 'webhook' }, /SMS_WEBHOOK_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ MQTT_URL: 'tcp://broker' }, /MQTT_URL/],
    [{ MQTT_PUBLIC_URL: 'mqtt://breakers.example.com:99999' }, /MQTT_PUBLIC_URL/],
    [{ MQTT_PUBLIC_URL: 'mqtt://breakers.example.com/path' }, /MQTT_PUBLIC_URL/],
  ];
  assert.equal(loadConfig({ MQTT_PUBLIC_URL: 'mqtts://breakers.example.com:8883' }).mqtt.publicUrl, 'mqtts://breakers.example.com:8883');
  for (const [env, msg] of cases)
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && msg.test(e.message),
      JSON.stringify(env),
    );
});

test('production refuses weak settings and disables SMS unless a sender is configured', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production', SMS_SENDER: 'log' }), /refused in production/);
  assert.throws(() => loadConfig({ NODE_ENV: 'production', SCRYPT_LOG2N: '12' }), /refused in production/);
  assert.equal(loadConfig({ NODE_ENV: 'production' }).smsSender, 'none');
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@h/db', RUN_MODE: 'lan' }).runMode, 'lan');
});

test('FILE_STORE: disk with SQLite, the database with DATABASE_URL, the bucket with the S3 settings; parsed strictly', () => {
  const pg = 'postgres://u@127.0.0.1/db';
  const s3 = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'faces', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SK', S3_REGION: 'us-east-1' };
  assert.equal(loadConfig({}).fileStore, 'disk');
  assert.equal(loadConfig({ DATABASE_URL: pg }).fileStore, 'database');
  assert.equal(loadConfig({ DATABASE_URL: pg, FILE_STORE: 'disk' }).fileStore, 'disk');
  const bucket = loadConfig({ DATABASE_URL: pg, ...s3 });
  assert.equal(bucket.fileStore, 's3');
  assert.deepEqual(bucket.s3, {
    endpoint: 'http://127.0.0.1:9000',
    bucket: 'faces',
    accessKeyId: 'AK',
    secretAccessKey: 'SK',
    region: 'us-east-1',
    prefix: '',
  });
  assert.equal(loadConfig({ ...s3, FILE_STORE: 'disk' }).fileStore, 'disk');
  assert.equal(loadConfig({ ...s3, S3_PREFIX: 'faceadmin/prod/' }).s3?.prefix, 'faceadmin/prod/');
  const cases: [Record<string, string>, RegExp][] = [
    [{ FILE_STORE: 'nfs' }, /FILE_STORE must be one of disk, database, s3/],
    [{ FILE_STORE: 'database' }, /FILE_STORE=database needs DATABASE_URL/],
    [{ FILE_STORE: 's3' }, /FILE_STORE=s3 needs S3_ENDPOINT/],
    [{ S3_BUCKET: 'faces' }, /missing S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION/],
    [{ ...s3, S3_ENDPOINT: 'ftp://x' }, /S3_ENDPOINT/],
    [{ ...s3, S3_BUCKET: 'Not_A_Bucket' }, /S3_BUCKET/],
    [{ ...s3, S3_REGION: 'us east' }, /S3_REGION/],
    [{ ...s3, S3_PREFIX: '../x' }, /S3_PREFIX/],
    [{ ...s3, S3_PREFIX: '../' }, /S3_PREFIX/],
  ];
  for (const [env, message] of cases)
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
      JSON.stringify(env),
    );
});
