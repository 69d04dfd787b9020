import { EmulatedBreaker } from '../../../../tools/breaker-emulator/breaker.ts';
import { seedBreakerHistory, type HistoryBreaker } from './seed-breaker-history.ts';
import { seedDemoSite } from './seed-sites.ts';
import type { App } from '../app.ts';
import { DEMO_COMPANY_NAME } from './seed-demo.ts';

/** The demo's smart circuit breakers (issue #12): registered for the demo company once, then emulated on every start. */
export const DEMO_BREAKERS = [
  { uuid: 'DEMO-BRK-01', alias: 'A栋宿舍 Dorm A', lines: ['照明 Lighting', '插座 Sockets', '空调 Air-con'], loads: [180, 650, 1300] },
  { uuid: 'DEMO-BRK-02', alias: 'B栋办公 Office B', lines: ['照明 Lighting', '插座 Sockets'], loads: [300, 900] },
  { uuid: 'DEMO-BRK-03', alias: '食堂 Canteen', lines: ['总线 Main', '厨房 Kitchen', '热水 Water heater', '照明 Lighting'], loads: [4400, 2200, 1800, 400] },
] as const;
/** The demo breakers' past alarms (all cleared): days ago, the line's index (null: the breaker went offline), minutes. */
const DEMO_ALARMS: Record<string, HistoryBreaker['alarms']> = {
  'DEMO-BRK-01': [
    { daysAgo: 2.3, line: 2, type: 'overcurrent', minutes: 14 },
    { daysAgo: 11.6, line: 1, type: 'overpower', minutes: 6 },
    { daysAgo: 19.2, line: null, type: 'offline', minutes: 42 },
  ],
  'DEMO-BRK-02': [
    { daysAgo: 4.7, line: 1, type: 'overpower', minutes: 9 },
    { daysAgo: 23.4, line: null, type: 'offline', minutes: 75 },
  ],
  'DEMO-BRK-03': [
    { daysAgo: 1.4, line: 1, type: 'overcurrent', minutes: 21 },
    { daysAgo: 8.5, line: 2, type: 'overpower', minutes: 12 },
    { daysAgo: 15.9, line: 1, type: 'overcurrent', minutes: 8 },
    { daysAgo: 27.1, line: null, type: 'offline', minutes: 30 },
  ],
};
/** Demo only: a fixed MQTT password per demo breaker, so the emulator can sign in after a restart. */
const demoPassword = (uuid: string) => `demo-${uuid.toLowerCase()}-pw`;

export async function startDemoBreakers(app: App, url: string) {
  const db = app.database.db;
  const company = await db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY_NAME).executeTakeFirst();
  if (!company) return { breakers: [], stop: async () => {} };
  const admin = await db.selectFrom('memberships').select('admin_id').where('company_id', '=', company.id).where('is_init', '=', 1).executeTakeFirst();
  const tenant = { companyId: company.id, adminId: admin?.admin_id ?? 0, adminName: '张伟', ip: '127.0.0.1', timeZone: 'Asia/Shanghai' };
  const service = app.modules.breakers.service;
  for (const [i, d] of DEMO_BREAKERS.entries()) {
    if (await db.selectFrom('breakers').select('id').where('uuid', '=', d.uuid).executeTakeFirst()) continue;
    const { breaker } = await service.create(tenant, { uuid: d.uuid, alias: d.alias, sort: i + 1, linenum: d.lines.length, password: demoPassword(d.uuid) });
    const info = await service.info(tenant, breaker.id);
    for (const [k, line] of info.lines.entries()) {
      await service.lineUpdate('zh-CN', tenant, {
        id: line.id,
        title: d.lines[k]!,
        main: d.lines[k]!.startsWith('总线') ? 1 : 0,
        line_type: k === 0 ? 'lighting' : 'socket',
        mxgg: 6600,
        mxgl: 3200,
      });
    }
    // Lights off at night on weekdays, on again in the morning.
    const light = info.lines[0]!.id;
    await service.timerCreate('zh-CN', tenant, {
      breaker_id: breaker.id,
      type: 'cyclic',
      line_ids: [light],
      time: '23:30',
      weekdays: [0, 1, 2, 3, 4],
      action: 'off',
    });
    await service.timerCreate('zh-CN', tenant, {
      breaker_id: breaker.id,
      type: 'cyclic',
      line_ids: [light],
      time: '06:30',
      weekdays: [1, 2, 3, 4, 5],
      action: 'on',
    });
  }
  // The device map: the floor plan with the terminals and these breakers placed (once; the demo's site stays as edited).
  await seedDemoSite(app, tenant);
  // A month of power and energy and a few cleared alarms (once), the emulators going on from the recorded meters.
  const meters = new Map<string, number[]>();
  for (const d of DEMO_BREAKERS) {
    const b = await db.selectFrom('breakers').select(['id', 'company_id']).where('uuid', '=', d.uuid).executeTakeFirst();
    if (!b) continue;
    const lines = () => db.selectFrom('breaker_lines').select(['id', 'title', 'energy_wh']).where('breaker_id', '=', b.id).orderBy('addr').execute();
    await seedBreakerHistory(db, tenant.timeZone, {
      id: b.id,
      companyId: b.company_id,
      office: d.uuid === 'DEMO-BRK-02',
      lines: (await lines()).map((l, k) => ({ ...l, baseW: d.loads[k] ?? 300 })),
      alarms: DEMO_ALARMS[d.uuid] ?? [],
    });
    meters.set(
      d.uuid,
      (await lines()).map((l) => Number(l.energy_wh)),
    );
  }
  const breakers = DEMO_BREAKERS.map(
    (d) =>
      new EmulatedBreaker({
        url,
        uuid: d.uuid,
        password: demoPassword(d.uuid),
        lines: d.lines.length,
        baseLoadW: [...d.loads],
        ...(meters.get(d.uuid)?.some((m) => m > 0) ? { energyWh: meters.get(d.uuid)! } : {}),
        reportMs: 5000,
      }),
  );
  for (const b of breakers) await b.start().catch((err: Error) => app.log.warn({ err: err.message, uuid: b.uuid }, 'demo breaker could not connect'));
  return {
    breakers,
    async stop() {
      for (const b of breakers) await b.stop().catch(() => {});
    },
  };
}
