import { isIP } from 'node:net';
import path from 'node:path';
import { RUN_MODES, type RunMode } from '@faceadmin/shared';
import type { S3Settings } from './lib/files/s3.ts';
import { FILE_STORE_KINDS, validKey, type FileStoreKind } from './lib/files/store.ts';
import { parseCidrList, type OutboundPolicy } from './lib/outbound.ts';

/** Every environment variable the server reads, validated once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * DEVICE_SECRET_KEY (base64, at least 32 bytes): the key device secrets and API keys are hashed under. Several
   * instances must share one; without it each instance uses (and makes) DATA_DIR/keys/device-secrets.key.
   */
  deviceSecretKey: Buffer | undefined;
  databaseUrl: string | undefined;
  runMode: RunMode;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** 'auto': readable lines when stdout is a terminal, JSON otherwise (files, pipes, log collectors). */
  logFormat: 'auto' | 'json' | 'pretty';
  production: boolean;
  /** 'log' writes codes to the server log (development), 'webhook' POSTs them to smsWebhookUrl, 'none' disables SMS. */
  smsSender: 'log' | 'webhook' | 'none';
  smsWebhookUrl: string | undefined;
  /** Built console (apps/web/dist); served at / when it exists. */
  webDist: string | undefined;
  /** Session lifetime in seconds; renewed while in use. */
  sessionTtl: number;
  /** scrypt cost exponent (N = 2^x). 17 is the OWASP ASVS figure; tests may lower it, production may not. */
  scryptLog2N: number;
  title: string;
  demo: boolean;
  /** Trust X-Forwarded-For from these proxies (comma-separated addresses/CIDRs, or "loopback"); off by default so clients cannot spoof their address past the throttles. */
  trustProxy: string | false;
  /** Seconds between a terminal's command polls (ZK PUSH "Delay"); also sets when it counts as offline. */
  devicePollSeconds: number;
  /** Smart circuit breakers over MQTT (docs/breaker-protocol.md §8). */
  mqtt: {
    /** the embedded broker's port (0: an ephemeral one); ignored with url */
    port: number;
    host: string;
    /** an external broker (mqtt://…): the server connects to it as a client instead of embedding one */
    url: string | undefined;
    /** where breakers connect, as the console tells technicians (MQTT_PUBLIC_URL); else the broker's own address */
    publicUrl: string | undefined;
    username: string | undefined;
    password: string | undefined;
    /** Mosquitto: the password and ACL files the server maintains, and its pid file (SIGHUP after a rewrite) */
    passwordFile: string | undefined;
    aclFile: string | undefined;
    reloadPidFile: string | undefined;
    /** messages a second one breaker may publish (bursts of twice that) */
    rate: number;
    commandTimeoutMs: number;
  };
  breakers: {
    /** spec §9: how long a self-check keeps the line off (10 s; tests shorten it) */
    selfCheckSeconds: number;
    /** per-minute measurements kept this many days; raw readings 48 h */
    retentionDays: number;
  };
  /** Webhooks (docs/api-integrations.md): a day of failures pauses an endpoint, retries start 10 s apart (journeys shorten both). */
  webhooks: { pauseAfterSeconds: number; firstRetrySeconds: number };
  /**
   * Where webhooks and the parking push may reach beyond public addresses (issue #28, lib/outbound.ts): OUTBOUND_ALLOW's
   * ranges (e.g. 127.0.0.0/8,::1/128 for a receiver on this machine), and private ranges in LAN mode.
   */
  outbound: OutboundPolicy;
  /** GET /metrics (Prometheus) with `Authorization: Bearer <this>` from anywhere; unset: only from loopback, never through a proxy (docs/deploy.md). */
  metricsToken: string | undefined;
  /** Face photos checked at upload by the bundled face detector (docs/face-check.md); 'off' stores any picture. */
  faceCheck: 'on' | 'off';
  /**
   * ISAPI_EVENT_URL: the base ISAPI terminals post their events to, where this server is reached through a proxy,
   * NAT or another interface (docs/isapi-protocol.md §6); unset, the interface routed to each terminal and PORT.
   */
  isapiEventUrl: EventUrl | undefined;
  /** Where files live (docs/files.md): DATA_DIR, the database (default with DATABASE_URL) or an S3-compatible bucket. */
  fileStore: FileStoreKind;
  /** the bucket, when every S3_* setting is given */
  s3: S3Settings | undefined;
}

/** A base URL terminals post to: http(s), a host (IPv4, IPv6 or a name), a port, and a path prefix ('' or '/x/y'). */
export interface EventUrl {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  path: string;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, key: string, def: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, key: string, allowed: readonly T[], def: T): T {
  const raw = env[key];
  if (raw === undefined || raw === '') return def;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${key} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

const S3_KEYS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION'] as const;

/** The bucket settings: all of them or none; FILE_STORE defaults to s3 when they are given. */
function s3Of(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const given = S3_KEYS.filter((k) => env[k]);
  if (!given.length) return undefined;
  if (given.length < S3_KEYS.length) throw new ConfigError(`S3 settings go together: missing ${S3_KEYS.filter((k) => !env[k]).join(', ')}`);
  const endpoint = env.S3_ENDPOINT!;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError('S3_ENDPOINT must be an http:// or https:// address');
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) throw new ConfigError('S3_ENDPOINT must be an http:// or https:// address');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(env.S3_BUCKET!))
    throw new ConfigError('S3_BUCKET must be a bucket name (3–63 lower-case letters, digits, . or -)');
  if (!/^[a-z0-9-]{2,40}$/.test(env.S3_REGION!)) throw new ConfigError('S3_REGION must be a region name such as us-east-1');
  const prefix = env.S3_PREFIX ?? '';
  if (prefix && (!prefix.endsWith('/') || !validKey(prefix.slice(0, -1)))) throw new ConfigError('S3_PREFIX must be folder names ending with /');
  return { endpoint, bucket: env.S3_BUCKET!, accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY!, region: env.S3_REGION!, prefix };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  const adminUsername = env.ADMIN_USERNAME?.trim() || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if ((adminUsername && !adminPassword) || (!adminUsername && adminPassword)) throw new ConfigError('ADMIN_USERNAME and ADMIN_PASSWORD go together');
  if (adminUsername && (adminUsername.length > 20 || !/^[A-Za-z0-9._@-]+$/.test(adminUsername)))
    throw new ConfigError('ADMIN_USERNAME: at most 20 letters, digits or . _ - @');
  if (adminPassword && adminPassword.length < 6) throw new ConfigError('ADMIN_PASSWORD must have at least 6 characters');
  const smsSender = oneOf(env, 'SMS_SENDER', ['log', 'webhook', 'none'] as const, production ? 'none' : 'log');
  const smsWebhookUrl = env.SMS_WEBHOOK_URL || undefined;
  if (smsSender === 'webhook' && !smsWebhookUrl) throw new ConfigError('SMS_SENDER=webhook needs SMS_WEBHOOK_URL');
  if (production && smsSender === 'log') throw new ConfigError('SMS_SENDER=log writes codes to the log and is refused in production');
  const scryptLog2N = int(env, 'SCRYPT_LOG2N', 17, 10, 20);
  if (production && scryptLog2N < 17) throw new ConfigError('SCRYPT_LOG2N below 17 is refused in production');
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const mqttUrl = env.MQTT_URL || undefined;
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken))
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  if (mqttUrl && !/^mqtts?:\/\//.test(mqttUrl)) throw new ConfigError('MQTT_URL must start with mqtt:// or mqtts://');
  const publicUrl = env.MQTT_PUBLIC_URL || undefined;
  if (publicUrl && !validBrokerUrl(publicUrl)) throw new ConfigError('MQTT_PUBLIC_URL must be mqtt://host[:port] or mqtts://host[:port] (port 1–65535)');
  let deviceSecretKey: Buffer | undefined;
  if (env.DEVICE_SECRET_KEY) {
    const text = env.DEVICE_SECRET_KEY.trim();
    deviceSecretKey = Buffer.from(text, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || deviceSecretKey.length < 32)
      throw new ConfigError('DEVICE_SECRET_KEY must be at least 32 bytes in base64 (e.g. the content of DATA_DIR/keys/device-secrets.key)');
  }
  const s3 = s3Of(env);
  const fileStore = oneOf(env, 'FILE_STORE', FILE_STORE_KINDS, s3 ? 's3' : databaseUrl ? 'database' : 'disk');
  if (fileStore === 's3' && !s3) throw new ConfigError(`FILE_STORE=s3 needs ${S3_KEYS.join(', ')}`);
  // SQLite keeps files in DATA_DIR: one server, and a write transaction there holds the only connection
  if (fileStore === 'database' && !databaseUrl) throw new ConfigError('FILE_STORE=database needs DATABASE_URL (with SQLite files stay in DATA_DIR)');
  let outboundAllow: OutboundPolicy['allow'];
  try {
    outboundAllow = parseCidrList(env.OUTBOUND_ALLOW ?? '');
  } catch (err) {
    throw new ConfigError(`OUTBOUND_ALLOW must list address ranges separated by commas: ${(err as Error).message}`);
  }
  const runMode = oneOf(env, 'RUN_MODE', RUN_MODES, 'normal');
  const webDist = env.WEB_DIST ? path.resolve(env.WEB_DIST) : path.resolve(import.meta.dirname, '../../web/dist');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir,
    deviceSecretKey,
    databaseUrl,
    runMode,
    adminUsername,
    adminPassword,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    production,
    smsSender,
    smsWebhookUrl,
    webDist,
    sessionTtl: int(env, 'SESSION_TTL', 7 * 24 * 3600, 60, 90 * 24 * 3600),
    scryptLog2N,
    title: env.SYSTEM_TITLE || 'FaceAdmin',
    demo: env.DEMO === '1',
    trustProxy: env.TRUST_PROXY?.trim() || false,
    devicePollSeconds: int(env, 'DEVICE_POLL_SECONDS', 10, 1, 60),
    mqtt: {
      port: int(env, 'MQTT_PORT', 1883, 0, 65535),
      host: env.MQTT_HOST || env.HOST || '0.0.0.0',
      url: mqttUrl,
      publicUrl,
      username: env.MQTT_USERNAME || undefined,
      password: env.MQTT_PASSWORD || undefined,
      passwordFile: env.MQTT_PASSWORD_FILE || undefined,
      aclFile: env.MQTT_ACL_FILE || undefined,
      reloadPidFile: env.MQTT_RELOAD_PID_FILE || undefined,
      rate: int(env, 'MQTT_RATE', 20, 1, 10_000),
      commandTimeoutMs: int(env, 'BREAKER_COMMAND_TIMEOUT_MS', 5000, 100, 60_000),
    },
    breakers: {
      selfCheckSeconds: int(env, 'BREAKER_SELF_CHECK_SECONDS', 10, 1, 60),
      retentionDays: int(env, 'BREAKER_RETENTION_DAYS', 400, 2, 3650),
    },
    webhooks: {
      pauseAfterSeconds: int(env, 'WEBHOOK_PAUSE_SECONDS', 86_400, 10, 30 * 86_400),
      firstRetrySeconds: int(env, 'WEBHOOK_RETRY_SECONDS', 10, 1, 3600),
    },
    outbound: { allow: outboundAllow, privateAllowed: runMode === 'lan' },
    fileStore,
    s3,
    faceCheck: oneOf(env, 'FACE_CHECK', ['on', 'off'] as const, 'on'),
    isapiEventUrl: env.ISAPI_EVENT_URL ? parseEventUrl(env.ISAPI_EVENT_URL, 'ISAPI_EVENT_URL') : undefined,
    metricsToken,
  };
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * http(s)://host[:port][/prefix]: nothing the terminal's host notification cannot carry (no account, query or
 * fragment; the path only of URL-safe characters, since it goes into the terminal's XML as is).
 */
export function parseEventUrl(raw: string, key: string): EventUrl {
  const fail = (why: string) => new ConfigError(`${key} must be http://host[:port][/path] or https://…: ${why}, got "${raw}"`);
  const m = /^(https?):\/\/([^/?#]*)([^?#]*)$/i.exec(raw.trim());
  if (!m) throw fail('a scheme http or https, no query or fragment');
  const protocol = m[1]!.toLowerCase() as 'http' | 'https';
  const authority = m[2]!;
  if (authority.includes('@')) throw fail('no account in the address');
  const hp = /^(\[[0-9A-Fa-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!hp) throw fail('a host and an optional port');
  let host = hp[1]!;
  if (host.startsWith('[')) {
    host = host.slice(1, -1);
    if (isIP(host) !== 6) throw fail('an IPv6 address in brackets');
  } else if (!IPV4.test(host) && (!HOST_NAME.test(host) || /^[\d.]+$/.test(host))) throw fail('a host name or an IP address');
  const port = hp[2] === undefined ? (protocol === 'https' ? 443 : 80) : Number(hp[2]);
  if (port < 1 || port > 65535) throw fail('a port from 1 to 65535');
  const path = m[3]!.replace(/\/+$/, '');
  if (path && !/^(?:\/[A-Za-z0-9._~-]+)+$/.test(path)) throw fail('a path of letters, digits and . _ ~ - segments');
  if (path.length > 100) throw fail('a path of at most 100 characters');
  return { protocol, host: host.toLowerCase(), port, path };
}

/** mqtt://host[:port] or mqtts://host[:port], a port the URL parser accepts (1–65535), nothing after the host. */
function validBrokerUrl(url: string): boolean {
  if (!/^mqtts?:\/\/[^/:]+(:\d{1,5})?\/?$/.test(url)) return false;
  try {
    const port = new URL(url).port;
    return !port || (Number(port) >= 1 && Number(port) <= 65535);
  } catch {
    return false;
  }
}
