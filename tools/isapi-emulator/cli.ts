// Run one or many emulated Hikvision ISAPI access-control terminals the server dials.
//   node tools/isapi-emulator/cli.ts [--port 8090] [--count 3] [--password admin12345] [--recognize-every 30s]
//   node tools/isapi-emulator/cli.ts --site-people 150 --site-events 3000   (a working site to take over, §12)
//   node tools/isapi-emulator/cli.ts --make-firmware V3.3.0 --out fw.dav   (a package these terminals install)

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { seedSite } from './site.ts';
import { createIsapiTerminal, isapiEmulatorFirmware, TAKE_OVER_SEARCHES, type IsapiTerminal, type TakeOverSearch } from './terminal.ts';

const HELP = `Usage: node tools/isapi-emulator/cli.ts [options]

  --host ADDR            address to listen on (default 127.0.0.1)
  --port N               first port (default 8090); with --count > 1 the next ports follow
  --count N              number of terminals (default 1)
  --user NAME            account the server dials with (default admin)
  --password TEXT        its password (default admin12345)
  --serial SN            serial number (default DS-K1T671M…EMU00001); with --count > 1 the index is appended
  --capacity N           users / faces the terminal holds (default 3000)
  --algorithms LIST      digest algorithms offered, e.g. MD5 or SHA-256,MD5 (default SHA-256,MD5)
  --timezone N           minutes east of UTC of the terminal's clock (default 480)
  --firmware VERSION     the firmware it runs (default V3.2.0); an upgrade changes it
  --language NAME        its firmware's language (default English): a package for another is refused
  --upgrade-ms N         how long writing a firmware package takes (default 600)
  --reboot-ms N          how long a restart keeps it unplugged (default 300)
  --lock-after N         lock the account after N wrong passwords in a row (default: never)
  --lock-seconds N       how long such a lock lasts (default 1800)
  --make-firmware VER    write a firmware package these terminals install (to --out, with --model and --language
                         when given: a terminal of another model or language refuses it) and exit
  --out FILE             where --make-firmware writes (default isapi-emu-<VER>.dav)
  --model NAME           the model (default DS-K1T671M)
  --recognize-every DUR  a random enrolled person (now and then a stranger) faces the camera every DUR
  --site-people N        start already holding a working site (docs/isapi-protocol.md §12): N people of every user
                         type, most with a face, cards (several for some), fingerprints counted
  --site-events N        and N events in its log over the past --site-days days (default 0)
  --site-days N          how far back the site's log goes (default 30)
  --site-seed N          the same seed gives the same site (default 1; with --count > 1 each terminal adds its index)
  --face-url             UserInfo/Search lists each face's faceURL too, as some firmware does
  --self-address ADDR    the address its picture URLs name (default --host): the terminal's own view of itself
  --not-support LIST     searches answered notSupport with HTTP 200, e.g. FDLib/FDSearch,AcsEventTotalNum
                         (any of ${TAKE_OVER_SEARCHES.join(', ')})
  --no-push              refuse the host notification: events reach the server over the alertStream only
  --verbose              print every request
  -h, --help`;

function duration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s.trim());
  if (!m) throw new Error(`bad duration: ${s}`);
  const unit = m[2] ?? 's';
  return Number(m[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
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
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8090' },
      count: { type: 'string', default: '1' },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string', default: 'admin12345' },
      serial: { type: 'string' },
      capacity: { type: 'string' },
      algorithms: { type: 'string' },
      timezone: { type: 'string' },
      firmware: { type: 'string' },
      language: { type: 'string' },
      'upgrade-ms': { type: 'string' },
      'reboot-ms': { type: 'string' },
      'lock-after': { type: 'string' },
      'lock-seconds': { type: 'string' },
      'make-firmware': { type: 'string' },
      out: { type: 'string' },
      model: { type: 'string' },
      'recognize-every': { type: 'string' },
      'site-people': { type: 'string' },
      'site-events': { type: 'string' },
      'site-days': { type: 'string' },
      'site-seed': { type: 'string' },
      'face-url': { type: 'boolean', default: false },
      'self-address': { type: 'string' },
      'not-support': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      'no-push': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (values['make-firmware']) {
    const version = values['make-firmware'];
    const out = values.out ?? `isapi-emu-${version.replace(/[^A-Za-z0-9._-]/g, '_')}.dav`;
    fs.writeFileSync(
      out,
      isapiEmulatorFirmware(version, { ...(values.model ? { model: values.model } : {}), ...(values.language ? { language: values.language } : {}) }),
    );
    console.log(`${out}: firmware ${version} for the ISAPI emulator (upload it as version ${version})`);
    return;
  }
  const count = Math.max(1, Math.floor(num(values.count, 'count') ?? 1));
  const port = num(values.port, 'port') ?? 8090;
  const algorithms = values.algorithms?.split(',').map((a) => a.trim().toUpperCase());
  if (algorithms?.some((a) => a !== 'MD5' && a !== 'SHA-256')) throw new Error('--algorithms takes MD5 and SHA-256');
  const unsupported = values['not-support']?.split(',').map((s) => s.trim());
  const unknown = unsupported?.find((s) => !(TAKE_OVER_SEARCHES as readonly string[]).includes(s));
  if (unknown !== undefined) throw new Error(`--not-support: no search ${unknown}`);
  const sitePeople = num(values['site-people'], 'site-people') ?? 0;
  const siteSeed = num(values['site-seed'], 'site-seed') ?? 1;
  const terminals: IsapiTerminal[] = [];
  for (let i = 0; i < count; i++) {
    const serial = values.serial
      ? count > 1
        ? `${values.serial}${i + 1}`
        : values.serial
      : `DS-K1T671M0120261126V030200ENEMU${String(i + 1).padStart(5, '0')}`;
    const t = await createIsapiTerminal({
      host: values.host,
      port: port === 0 ? 0 : port + i,
      user: values.user,
      password: values.password,
      serial,
      verbose: values.verbose,
      refuseHttpHosts: values['no-push'],
      ...(values.capacity ? { capacity: num(values.capacity, 'capacity')! } : {}),
      ...(algorithms ? { algorithms: algorithms as ('MD5' | 'SHA-256')[] } : {}),
      ...(values.timezone ? { timezone: num(values.timezone, 'timezone')! } : {}),
      ...(values.firmware ? { firmware: values.firmware } : {}),
      ...(values.language ? { language: values.language } : {}),
      ...(values.model ? { model: values.model } : {}),
      ...(values['upgrade-ms'] ? { upgradeMs: num(values['upgrade-ms'], 'upgrade-ms')! } : {}),
      ...(values['reboot-ms'] ? { rebootMs: num(values['reboot-ms'], 'reboot-ms')! } : {}),
      ...(values['lock-after'] ? { lockAfter: num(values['lock-after'], 'lock-after')! } : {}),
      ...(values['lock-seconds'] ? { lockSeconds: num(values['lock-seconds'], 'lock-seconds')! } : {}),
      ...(values['self-address'] ? { selfAddress: values['self-address'] } : {}),
      ...(unsupported ? { unsupported: unsupported as TakeOverSearch[] } : {}),
      faceUrlInUserSearch: values['face-url'],
    });
    terminals.push(t);
    console.log(`${serial} listening on ${t.url} (account ${values.user})`);
    if (sitePeople > 0) {
      const site = seedSite(t, {
        people: sitePeople,
        events: num(values['site-events'], 'site-events') ?? 0,
        seed: siteSeed + i,
        ...(values['site-days'] ? { days: num(values['site-days'], 'site-days')! } : {}),
      });
      console.log(
        `  holds a site: ${site.people} people (${site.visitors} visitors, ${site.blackList} blackList), ${site.faces} faces, ` +
          `${site.cards} cards (${site.multiCard} people with several), ${site.fingerprints} with fingerprints, ${site.events} events`,
      );
    }
  }
  const timers: NodeJS.Timeout[] = [];
  if (values['recognize-every']) {
    const every = duration(values['recognize-every']);
    for (const t of terminals)
      timers.push(
        setInterval(() => {
          const known = [...t.users.keys()];
          const no = known.length && Math.random() > 0.1 ? known[Math.floor(Math.random() * known.length)]! : 'stranger';
          void t
            .recognize(no)
            .then((r) =>
              console.log(`${t.options.serial.slice(-8)} ${r.granted ? 'granted' : 'refused'} ${no} #${r.event.serialNo} ${r.pushed ? 'pushed' : 'kept'}`),
            );
        }, every),
      );
  }
  const shutdown = async () => {
    for (const tm of timers) clearInterval(tm);
    await Promise.all(terminals.map((t) => t.stop()));
    for (const t of terminals)
      console.log(`${t.options.serial}: users=${t.users.size} faces=${t.faces.size} events=${t.events.length} doorOpens=${t.doorOpens.length}`);
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
