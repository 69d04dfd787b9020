// Run one or many emulated PUSH terminals against a server.
//   node tools/zk-emulator/cli.ts --server http://127.0.0.1:8080 --sn DEMO0001 [--count 3] [--punch-every 30s] [--stranger-every 10m] [--capacity 3000]
//   A terminal that already holds a working site (docs/zk-push-protocol.md §12.6): --site-users 200 --site-punches 5000

import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { seedSite, type Site } from './site.ts';
import { createTerminal, type Terminal, type TerminalEvent } from './terminal.ts';

const HELP = `Usage: node tools/zk-emulator/cli.ts --server URL --sn SN [options]

  --server URL          PUSH server base URL (default http://127.0.0.1:8080)
  --sn SN               serial number (default DEMO0001); with --count > 1 the suffix -1, -2, ... is added
  --count N             number of terminals (default 1)
  --punch-every DUR     punch a random known user every DUR (e.g. 30s, 2m, 500ms); off by default
  --pins LIST           PINs to punch when the terminal has no users yet (default 1,2,3)
  --punch-photo FILE    JPEG sent as attendance photo with each punch
  --stranger-every DUR  see a face and refuse it every DUR: mostly an unknown face, now and then a known PIN
                        (verification failed); the capture goes up as a §11.8 ATTPHOTO; off by default
  --stranger-photo FILE JPEG sent as the stranger's capture (default: a small built-in silhouette)
  --capacity N          max users / face photos (default 3000)
  --language N          Appendix 2 language code (default 69 English; 83 = Simplified Chinese, GB2312 names)
  --timezone N          device TimeZone until the server sends one (hours, or minutes when |N| > 60)
  --photos-dir DIR      write received face photos to DIR/<sn>/<pin>.jpg
  --poll-ms N           override the server's Delay
  --retry-ms N          override the server's ErrorDelay
  --unsupported LIST    commands answered -1002, e.g. AC_UNLOCK,"DATA UPDATE BIOPHOTO"
  --alcohol             the terminal has a breathalyser: takes alcohol_* options; random punches carry a reading
  --health              the terminal reads health codes: random punches are followed by a HEALTHLOG record
  --place TEXT          install place reported with health records
  --unknown-user-error  answer -10 for deletes/queries of unknown PINs
  --no-capacity-error   never answer -1001
  --quiet               only print commands, uploads and errors
  -h, --help

A working site the terminal already holds when it starts (docs/zk-push-protocol.md §12, issue #30):
  --site-users N        N users put in directly (PIN 1..N, names, cards, some validity windows), each with a
                        BIOPHOTO type-9 face and its template; deterministic from --site-seed
  --site-punches N      N stored punches (already taken by a previous server: not uploaded unless asked for)
  --site-seed N         seed of the generated site (default 1); with --count > 1 each terminal gets the same
                        people and its own punches
  --site-from DATE      first day of the punch log, YYYY-MM-DD (default 2026-01-01)
  --site-days N         days the punch log spans (default 30)
  --site-faces F        share of users with a face, 0-1 (default 1)
  --site-userpics F     share of users with a USERPIC as well, 0-1 (default 0)
  --site-face-file LIST JPEG file(s) the faces are made from, comma-separated (default: the repository's test
                        portrait); every user's bytes differ
  --no-biophoto         the terminal keeps templates only (BioPhotoFun=0): no BIOPHOTO to read back
How it answers the server's reads (the text is silent; real firmware differs):
  --lines-per-post N    lines per OPERLOG / USERINFO / BIODATA POST of a query or re-send (default 100)
  --tgz                 stamp re-sends of OPERLOG go as ContentType=tgz
  --uploads-after       a query's / CHECK's uploads follow its result line (default: before it)
  --biophoto-no-index   BIOPHOTO lines carry No=0 and Index=0 after PIN
  --userinfo-table      USER lines are posted as table=USERINFO instead of OPERLOG
  --photo-queries       DATA QUERY BIOPHOTO / USERPIC answer with lines (default: -1002)
  --resend-at-handshake zero stamps (OPERLOGStamp=0, BIODATAStamp=0, ATTLOGStamp=0) re-send at every
                        handshake, not only on CHECK`;

function randomHealth() {
  const r = Math.random();
  const color = r < 0.85 ? 'green' : r < 0.97 ? 'yellow' : 'red';
  const temperature = Math.round((36.2 + Math.random() * (color === 'red' ? 1.8 : 0.8)) * 10) / 10;
  return { color, temperature, natResult: color === 'red' ? 'positive' : 'negative', vaccineCount: 3 } as const;
}

function duration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (!m) throw new Error(`bad duration: ${s}`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
}

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'http://127.0.0.1:8080' },
      sn: { type: 'string', default: 'DEMO0001' },
      count: { type: 'string', default: '1' },
      'punch-every': { type: 'string' },
      pins: { type: 'string', default: '1,2,3' },
      'punch-photo': { type: 'string' },
      'stranger-every': { type: 'string' },
      'stranger-photo': { type: 'string' },
      capacity: { type: 'string' },
      language: { type: 'string' },
      timezone: { type: 'string' },
      'photos-dir': { type: 'string' },
      'poll-ms': { type: 'string' },
      'retry-ms': { type: 'string' },
      unsupported: { type: 'string' },
      'unknown-user-error': { type: 'boolean', default: false },
      'no-capacity-error': { type: 'boolean', default: false },
      alcohol: { type: 'boolean', default: false },
      health: { type: 'boolean', default: false },
      place: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      'site-users': { type: 'string' },
      'site-punches': { type: 'string' },
      'site-seed': { type: 'string' },
      'site-from': { type: 'string' },
      'site-days': { type: 'string' },
      'site-faces': { type: 'string' },
      'site-userpics': { type: 'string' },
      'site-face-file': { type: 'string' },
      'no-biophoto': { type: 'boolean', default: false },
      'lines-per-post': { type: 'string' },
      tgz: { type: 'boolean', default: false },
      'uploads-after': { type: 'boolean', default: false },
      'biophoto-no-index': { type: 'boolean', default: false },
      'userinfo-table': { type: 'boolean', default: false },
      'photo-queries': { type: 'boolean', default: false },
      'resend-at-handshake': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const count = Math.max(1, Math.floor(num(values.count, 'count') ?? 1));
  const punchEvery = values['punch-every'] ? duration(values['punch-every']) : 0;
  const photo = values['punch-photo'] ? await readFile(values['punch-photo']) : undefined;
  const strangerEvery = values['stranger-every'] ? duration(values['stranger-every']) : 0;
  const strangerPhoto = values['stranger-photo'] ? await readFile(values['stranger-photo']) : undefined;
  const fallbackPins = values.pins
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const quiet = values.quiet;
  const siteUsers = num(values['site-users'], 'site-users') ?? 0;
  const sitePunches = num(values['site-punches'], 'site-punches') ?? 0;
  const siteSeed = num(values['site-seed'], 'site-seed') ?? 1;
  const facePhotos = values['site-face-file'] ? await Promise.all(values['site-face-file'].split(',').map((f) => readFile(f.trim()))) : undefined;
  // One site, several terminals: the same people everywhere, each terminal its own punches.
  const siteFor = (i: number): Site | undefined =>
    siteUsers > 0 || sitePunches > 0
      ? seedSite({
          users: siteUsers,
          punches: sitePunches,
          seed: siteSeed,
          ...(i > 1 ? { punchSeed: siteSeed * 1000 + i } : {}),
          ...(values['site-from'] ? { from: values['site-from'] } : {}),
          ...(values['site-days'] ? { days: num(values['site-days'], 'site-days') } : {}),
          ...(values['site-faces'] ? { faces: num(values['site-faces'], 'site-faces') } : {}),
          ...(values['site-userpics'] ? { userPics: num(values['site-userpics'], 'site-userpics') } : {}),
          ...(facePhotos ? { facePhotos } : {}),
        })
      : undefined;

  const print = (e: TerminalEvent) => {
    if (quiet && (e.type === 'poll' || e.type === 'result' || e.type === 'state' || e.type === 'options')) return;
    const t = new Date().toISOString().slice(11, 19);
    console.log(`${t} ${e.sn.padEnd(12)} ${e.type.padEnd(9)} ${e.message}`);
  };

  const terminals: Terminal[] = [];
  for (let i = 1; i <= count; i++) {
    const sn = count > 1 ? `${values.sn}-${i}` : values.sn;
    const t = createTerminal({
      server: values.server,
      sn,
      capacity: num(values.capacity, 'capacity'),
      language: num(values.language, 'language'),
      timezone: num(values.timezone, 'timezone'),
      photosDir: values['photos-dir'],
      pollMs: num(values['poll-ms'], 'poll-ms'),
      retryMs: num(values['retry-ms'], 'retry-ms'),
      alcohol: values.alcohol,
      health: values.health,
      ...(values.place ? { place: values.place } : {}),
      site: siteFor(i),
      bioPhoto: !values['no-biophoto'],
      linesPerPost: num(values['lines-per-post'], 'lines-per-post'),
      tgz: values.tgz,
      uploadOrder: values['uploads-after'] ? 'after' : 'before',
      bioPhotoNoIndex: values['biophoto-no-index'],
      userInfoTable: values['userinfo-table'],
      photoQueries: values['photo-queries'],
      resendAtHandshake: values['resend-at-handshake'],
      failOn: {
        capacity: !values['no-capacity-error'],
        unknownUser: values['unknown-user-error'],
        unsupported: values.unsupported ? values.unsupported.split(',').map((s) => s.trim()) : [],
      },
      onEvent: print,
    });
    terminals.push(t);
  }

  const timers: NodeJS.Timeout[] = [];
  for (const t of terminals) {
    void t.start();
    if (punchEvery > 0) {
      timers.push(
        setInterval(() => {
          if (!t.running) return;
          const known = [...t.users.keys()];
          const pool = known.length ? known : fallbackPins;
          const pin = pool[Math.floor(Math.random() * pool.length)] ?? '1';
          void t
            // Mostly sober, now and then over the drink-driving limit (20 mg/100 mL).
            .punch({
              pin,
              verify: 15,
              photo,
              ...(values.alcohol ? { alcohol: Math.random() < 0.9 ? Math.random() * 8 : 20 + Math.random() * 60 } : {}),
              // Mostly green, now and then yellow, rarely red.
              ...(values.health ? { health: randomHealth() } : {}),
            })
            .then((r) => print({ sn: t.sn, type: 'upload', message: `punch ${r.lines.join(' | ').replace(/\t/g, ' ')}` }));
        }, punchEvery),
      );
    }
  }
  for (const t of terminals) {
    if (strangerEvery <= 0) continue;
    timers.push(
      setInterval(() => {
        if (!t.running) return;
        // Mostly a face the terminal does not know; now and then a known PIN refused (verification failed).
        const known = [...t.users.keys()];
        const refused = known.length > 0 && Math.random() < 0.2;
        void t
          .stranger(refused ? { pin: known[Math.floor(Math.random() * known.length)]!, type: 4, photo: strangerPhoto } : { photo: strangerPhoto })
          .then((r) => print({ sn: t.sn, type: 'upload', message: `stranger ${r.name} → ${r.reply ?? 'kept'}` }));
      }, strangerEvery),
    );
  }
  console.log(`${terminals.length} terminal(s) → ${values.server}. Ctrl-C stops.`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    for (const tm of timers) clearInterval(tm);
    await Promise.all(terminals.map((t) => t.stop()));
    for (const t of terminals) {
      console.log(`${t.sn}: users=${t.users.size} photos=${t.photos.size} records=${t.attlog.length} doorOpens=${t.doorOpenCount} commands=${t.log.length}`);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  console.error(HELP);
  process.exit(2);
});
