import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { DEMO_DEVICES, DEMO_LOGIN, seedDemo } from './demo/seed-demo.ts';
import { captureJpegs } from './demo/seed-people.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const database = openDatabase({ ...config, onError: (err) => console.error(`database connection lost: ${err.message}`) });
  const app = await buildApp({ config, database });
  const seeded = config.demo ? await seedDemo(database, config.scryptLog2N, app.modules) : false;
  let closing = false;
  let stopDemo = async () => {};
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal: sig }, 'shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      // Demo terminals stop first, so they do not keep calling a closing server.
      stopDemo()
        .then(() => app.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
  await app.listen({ port: config.port, host: config.host });
  const where = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${(app.server.address() as { port: number }).port}`;
  app.log.info(`console: ${where}/  API docs: ${where}/api/docs  database: ${database.dialect}  mode: ${config.runMode}`);
  if (config.demo) {
    // The demo's terminals are emulated ZK PUSH devices talking to this server over real HTTP.
    const { createTerminal } = await import('../../../tools/zk-emulator/terminal.ts');
    const terminals = DEMO_DEVICES.map((d) => createTerminal({ server: where, sn: d.serial, timezone: 8, capacity: 3000, alcohol: 'alcohol' in d }));
    for (const term of terminals) void term.start();
    const pins = ['1001', '1002', '1003', '1004', '1005'];
    // Mostly sober; now and then over the 20 mg/100 mL limit (only the breathalyser entrance measures).
    const alcohol = () => Math.round((Math.random() < 0.9 ? Math.random() * 8 : 20 + Math.random() * 60) * 10) / 10;
    // Like real face terminals, each punch uploads its capture photo (ATTPHOTO) after the record.
    const shots = await captureJpegs(6);
    const punch = () => {
      const i = Math.floor(Math.random() * pins.length);
      void terminals[Math.floor(Math.random() * 2)]!.punch({ pin: pins[i]!, alcohol: alcohol(), photo: shots[i % shots.length]! });
    };
    const punches = setInterval(punch, 45_000);
    // A few at once, so the punch records page has pictures from the first minute.
    setTimeout(() => [0, 1, 2, 3].forEach((k) => setTimeout(punch, k * 700)), 4_000).unref();
    punches.unref();
    stopDemo = async () => {
      clearInterval(punches);
      await Promise.all(terminals.map((x) => x.stop()));
    };
    // Printed plainly (not through the logger) so it stands out in the terminal.
    console.log(
      `\n  Demo console: ${where}/\n  Sign in as ${DEMO_LOGIN.username} / ${DEMO_LOGIN.password}  (sub-admins: hr, guard, auditor, same password); 3 emulated terminals: ${DEMO_DEVICES.map((d) => d.serial).join(', ')}${seeded ? '' : '  [existing data kept]'}\n`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
