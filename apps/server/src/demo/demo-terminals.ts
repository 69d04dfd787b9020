import { seedSite } from '../../../../tools/zk-emulator/site.ts';
import { createTerminal } from '../../../../tools/zk-emulator/terminal.ts';
import { DEMO_DEVICES, demoDeviceIp } from './seed-demo.ts';
import { captureJpegs } from './seed-people.ts';
import { DEMO_TRAFFIC_PINS } from './traffic.ts';

/**
 * The demo's terminals: emulated ZK PUSH devices talking to the server over real HTTP, punching now and then
 * like a door in use: each punch uploads its capture photo (ATTPHOTO) after the record, as face terminals do,
 * and the two gates read health codes (a HEALTHLOG record with each punch). A few times an hour a terminal
 * refuses a face (spec §2 /stranger): mostly one it does not know, now and then a registered person whose
 * verification failed; the capture goes up as a §11.8 ATTPHOTO and no record comes with it.
 */
export async function startDemoTerminals(
  server: string,
  opts: { everyMs?: number; firstBurst?: number; strangerEveryMs?: number; enrolAfterMs?: number } = {},
) {
  const terminals = DEMO_DEVICES.map((d, i) =>
    createTerminal({
      server,
      sn: d.serial,
      timezone: 8,
      capacity: 3000,
      alcohol: 'alcohol' in d,
      health: 'health' in d,
      place: 'A栋一楼 Building A, ground floor',
      ip: demoDeviceIp(i),
    }),
  );
  // Taking over a working site (issue #30): the R&D door was in service before this server, and still holds eight people
  // the old software enrolled, with faces and a fortnight of their punches ("Take over the people on this terminal"
  // reads them); soon after start someone is enrolled at the door itself, and the administrators are told.
  const before = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  terminals[2]!.seed(seedSite({ users: 8, firstPin: 3001, punches: 40, seed: 11, faces: 0.9, validity: 0.25, from: before, days: 14 }));
  for (const term of terminals) void term.start();
  const enrol = setTimeout(
    () => void terminals[2]!.enrolHere({ pin: '3101', name: 'Lin Yu', face: seedSite({ users: 1, firstPin: 3101, seed: 12 }).users[0]!.face }),
    opts.enrolAfterMs ?? 10_000,
  );
  enrol.unref();
  const pins = DEMO_TRAFFIC_PINS;
  // Six faces for the staff's punches, two more for strangers (the same generator: the first six stay as they were).
  const all = await captureJpegs(8);
  const shots = all.slice(0, 6);
  const strangerShots = all.slice(6);
  // Mostly sober; now and then over the 20 mg/100 mL limit (only the breathalyser entrance measures).
  const alcohol = () => Math.round((Math.random() < 0.9 ? Math.random() * 8 : 20 + Math.random() * 60) * 10) / 10;
  // Health codes: mostly green, now and then yellow, a red among the first few (so the page shows all three).
  const COLORS = ['green', 'yellow', 'green', 'red', 'green', 'green', 'green', 'green', 'yellow', 'green'] as const;
  let n = 0;
  const health = (term: (typeof terminals)[number], pin: string) => {
    const color = COLORS[n++ % COLORS.length]!;
    const yesterday = new Date(Date.now() + 8 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    return {
      color,
      name: term.users.get(pin)?.name ?? '',
      idNumber: `4403051990010${pin}`.slice(0, 17) + 'X',
      temperature: Math.round((36.2 + Math.random() * (color === 'red' ? 1.4 : 0.6)) * 10) / 10,
      natTime: `${yesterday} 10:00:00`,
      natResult: color === 'red' ? ('positive' as const) : ('negative' as const),
      trip: color === 'green' ? '深圳 Shenzhen' : '深圳 Shenzhen; 广州 Guangzhou',
      vaccineCount: 3,
      vaccineTime: '2022-03-01',
    };
  };
  const punch = () => {
    const i = Math.floor(Math.random() * pins.length);
    const term = terminals[Math.floor(Math.random() * 2)]!;
    return term.punch({ pin: pins[i]!, alcohol: alcohol(), photo: shots[i % shots.length]!, health: health(term, pins[i]!) });
  };
  const timer = setInterval(() => void punch(), opts.everyMs ?? 45_000);
  timer.unref();
  let strangers = 0;
  const stranger = () => {
    const term = terminals[Math.floor(Math.random() * terminals.length)]!;
    // One in four is a registered person refused (verification failed); the rest are unknown faces.
    const refused = strangers++ % 4 === 3;
    return term.stranger(
      refused ? { pin: pins[Math.floor(Math.random() * pins.length)]!, type: 4 } : { photo: strangerShots[strangers % strangerShots.length]! },
    );
  };
  // A few an hour (every 15 min by default), and one soon after start so the strangers page is not empty.
  const strangerTimer = setInterval(() => void stranger(), opts.strangerEveryMs ?? 15 * 60_000);
  strangerTimer.unref();
  const firstStranger = setTimeout(() => (opts.firstBurst ?? 4) > 0 && void stranger(), 8_000);
  firstStranger.unref();
  // A few at once, so the punch records page has pictures from the first minute.
  const burst = setTimeout(() => Array.from({ length: opts.firstBurst ?? 4 }, (_, k) => setTimeout(() => void punch(), k * 700)), 4_000);
  burst.unref();
  return {
    terminals,
    punch,
    stranger,
    async stop() {
      clearInterval(timer);
      clearTimeout(burst);
      clearInterval(strangerTimer);
      clearTimeout(firstStranger);
      clearTimeout(enrol);
      await Promise.all(terminals.map((x) => x.stop()));
    },
  };
}

/** The demo's Hikvision terminals (`npm run demo -- --lan`): account and password the scan dialog takes. */
export const DEMO_ISAPI = { user: 'admin', password: 'demo12345', hosts: ['127.0.0.11', '127.0.0.12'] } as const;

/**
 * Emulated ISAPI terminals beside the ZK ones, not added: the administrator finds them with "Scan the network" (range
 * 127.0.0.10-127.0.0.20, the port printed at start) and adds them with one click. Where extra loopback addresses
 * cannot be bound (macOS), they listen on 127.0.0.1, each on its own port.
 */
export async function startDemoIsapiTerminals() {
  const { createIsapiTerminal } = await import('../../../../tools/isapi-emulator/terminal.ts');
  const models = [
    { model: 'DS-K1T671M', serial: 'DS-K1T671M0120261126V030200ENDEMO0011', deviceName: 'Lobby' },
    { model: 'DS-K1T341AM', serial: 'DS-K1T341AM20261126V030200ENDEMO0012', deviceName: 'Warehouse' },
  ];
  const terminals: Awaited<ReturnType<typeof createIsapiTerminal>>[] = [];
  try {
    let port = 0;
    for (const [i, m] of models.entries()) {
      const term = await createIsapiTerminal({ ...m, host: DEMO_ISAPI.hosts[i]!, port, user: DEMO_ISAPI.user, password: DEMO_ISAPI.password });
      port = term.port;
      terminals.push(term);
    }
  } catch {
    await Promise.all(terminals.splice(0).map((x) => x.stop()));
    for (const m of models) terminals.push(await createIsapiTerminal({ ...m, host: '127.0.0.1', user: DEMO_ISAPI.user, password: DEMO_ISAPI.password }));
  }
  return {
    terminals,
    /** what to type in the scan dialog */
    get where() {
      return terminals.map((x) => `${x.options.host}:${x.port}`).join(', ');
    },
    async stop() {
      await Promise.all(terminals.map((x) => x.stop()));
    },
  };
}
