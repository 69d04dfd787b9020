import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { DEMO_DEVICES, DEMO_LOGIN, seedDemo } from './demo/seed-demo.ts';

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
  let breakersLine = '';
  if (config.demo) {
    // Loaded only for the demo: production never loads the terminal emulator.
    const { startDemoTerminals, startDemoIsapiTerminals, DEMO_ISAPI } = await import('./demo/demo-terminals.ts');
    const demoTerminals = await startDemoTerminals(where);
    // `npm run demo -- --lan`: Hikvision terminals too, for "Scan the network" to find (issue #20).
    const isapi = config.runMode === 'lan' ? await startDemoIsapiTerminals() : undefined;
    // Smart circuit breakers (issue #12): emulated against the embedded broker, or the external one.
    const { startDemoBreakers, DEMO_BREAKERS } = await import('./demo/demo-breakers.ts');
    const demoBreakers = await startDemoBreakers(app, config.mqtt.url ?? `mqtt://127.0.0.1:${app.mqtt.port}`);
    breakersLine = `; ${DEMO_BREAKERS.length} emulated breakers over MQTT (port ${app.mqtt.port ?? config.mqtt.url}): ${DEMO_BREAKERS.map((b) => b.uuid).join(', ')}`;
    stopDemo = async () => {
      await demoBreakers.stop();
      await demoTerminals.stop();
      await isapi?.stop();
    };
    // Printed plainly (not through the logger) so it stands out in the terminal.
    console.log(
      `\n  Demo console: ${where}/\n  Sign in as ${DEMO_LOGIN.username} / ${DEMO_LOGIN.password}  (sub-admins: hr, guard, auditor, same password); 3 emulated terminals: ${DEMO_DEVICES.map((d) => d.serial).join(', ')}${breakersLine}${seeded ? '' : '  [existing data kept]'}\n`,
    );
    if (isapi)
      console.log(
        `  LAN mode: ${isapi.terminals.length} emulated Hikvision terminals at ${isapi.where} (account ${DEMO_ISAPI.user}, password ${DEMO_ISAPI.password}): Face devices → Scan the network\n`,
      );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
