import { createTerminal } from '../../../../tools/zk-emulator/terminal.ts';
import { DEMO_DEVICES, demoDeviceIp } from './seed-demo.ts';
import { captureJpegs } from './seed-people.ts';

/**
 * The demo's terminals: emulated ZK PUSH devices talking to the server over real HTTP, punching now and then
 * like a door in use: each punch uploads its capture photo (ATTPHOTO) after the record, as face terminals do.
 */
export async function startDemoTerminals(server: string, opts: { everyMs?: number; firstBurst?: number } = {}) {
  const terminals = DEMO_DEVICES.map((d, i) =>
    createTerminal({ server, sn: d.serial, timezone: 8, capacity: 3000, alcohol: 'alcohol' in d, ip: demoDeviceIp(i) }),
  );
  for (const term of terminals) void term.start();
  const pins = ['1001', '1002', '1003', '1004', '1005'];
  const shots = await captureJpegs(6);
  // Mostly sober; now and then over the 20 mg/100 mL limit (only the breathalyser entrance measures).
  const alcohol = () => Math.round((Math.random() < 0.9 ? Math.random() * 8 : 20 + Math.random() * 60) * 10) / 10;
  const punch = () => {
    const i = Math.floor(Math.random() * pins.length);
    return terminals[Math.floor(Math.random() * 2)]!.punch({ pin: pins[i]!, alcohol: alcohol(), photo: shots[i % shots.length]! });
  };
  const timer = setInterval(() => void punch(), opts.everyMs ?? 45_000);
  timer.unref();
  // A few at once, so the punch records page has pictures from the first minute.
  const burst = setTimeout(() => Array.from({ length: opts.firstBurst ?? 4 }, (_, k) => setTimeout(() => void punch(), k * 700)), 4_000);
  burst.unref();
  return {
    terminals,
    punch,
    async stop() {
      clearInterval(timer);
      clearTimeout(burst);
      await Promise.all(terminals.map((x) => x.stop()));
    },
  };
}
