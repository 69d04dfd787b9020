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
  assert.deepEqual(c.outbound, { allow: [], privateAllowed: false });
});

test('OUTBOUND_ALLOW: ranges webhooks and the parking push may reach beyond public addresses; LAN mode adds private ones', () => {
  const c = loadConfig({ OUTBOUND_ALLOW: '127.0.0.0/8, ::1/128' });
  assert.deepEqual(c.outbound, {
    allow: [
      { v6: false, base: 0x7f000000n, bits: 8 },
      { v6: true, base: 1n, bits: 128 },
    ],
    privateAllowed: false,
  });
  assert.equal(loadConfig({ RUN_MODE: 'lan' }).outbound.privateAllowed, true);
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
    [{ DEVICE_SECRET_KEY: 'c2hvcnQ=' }, /DEVICE_SECRET_KEY/],
    [{ DEVICE_SECRET_KEY: 'not base64 at all, but long enough to be 32 bytes!!' }, /DEVICE_SECRET_KEY/],
    [{ MQTT_URL: 'tcp://broker' }, /MQTT_URL/],
    [{ MQTT_PUBLIC_URL: 'mqtt://breakers.example.com:99999' }, /MQTT_PUBLIC_URL/],
    [{ MQTT_PUBLIC_URL: 'mqtt://breakers.example.com/path' }, /MQTT_PUBLIC_URL/],
    [{ OUTBOUND_ALLOW: '127.0.0.0/8,localhost' }, /OUTBOUND_ALLOW.*"localhost"/],
    [{ OUTBOUND_ALLOW: '10.0.0.0/33' }, /OUTBOUND_ALLOW/],
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

test('DEVICE_SECRET_KEY: one key for every instance, read as base64', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  assert.deepEqual(loadConfig({ DEVICE_SECRET_KEY: key }).deviceSecretKey, Buffer.alloc(32, 7));
  assert.equal(loadConfig({}).deviceSecretKey, undefined);
});

test('ISAPI_EVENT_URL: the base terminals post to behind a proxy, parsed strictly at start', () => {
  assert.equal(loadConfig({}).isapiEventUrl, undefined);
  assert.deepEqual(loadConfig({ ISAPI_EVENT_URL: 'http://faceadmin.example.lan:8080' }).isapiEventUrl, {
    protocol: 'http',
    host: 'faceadmin.example.lan',
    port: 8080,
    path: '',
  });
  assert.deepEqual(loadConfig({ ISAPI_EVENT_URL: 'HTTPS://Gate.Example.com/faceadmin/' }).isapiEventUrl, {
    protocol: 'https',
    host: 'gate.example.com',
    port: 443,
    path: '/faceadmin',
  });
  assert.deepEqual(loadConfig({ ISAPI_EVENT_URL: 'http://10.0.0.5' }).isapiEventUrl, { protocol: 'http', host: '10.0.0.5', port: 80, path: '' });
  assert.deepEqual(loadConfig({ ISAPI_EVENT_URL: 'http://[fd00::5]:9000/a/b' }).isapiEventUrl, { protocol: 'http', host: 'fd00::5', port: 9000, path: '/a/b' });
  for (const bad of [
    'faceadmin.example.lan:8080',
    'ftp://host',
    'http://',
    'http://host:0',
    'http://host:70000',
    'http://host:port',
    'http://user:pw@host',
    'http://host/?x=1',
    'http://host/#top',
    'http://host/a b',
    'http://host/<x>',
    'http://300.1.1.1',
    'http://[not-ipv6]',
    'http://-bad-.lan',
    'http://host_name',
  ])
    assert.throws(
      () => loadConfig({ ISAPI_EVENT_URL: bad }),
      (e: unknown) => e instanceof ConfigError && /ISAPI_EVENT_URL/.test(e.message),
      bad,
    );
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
