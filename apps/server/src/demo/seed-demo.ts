import { ALL_RIGHTS, rightsFromFunctions, type FunctionRight } from '@faceadmin/shared';
import type { Modules } from '../app.ts';
import type { Database } from '../db/database.ts';
import { hashPassword } from '../lib/crypto.ts';
import { clock, nowIso } from '../lib/time.ts';
import { addDays } from '../modules/attendance/plans.ts';
import { localDate } from '../modules/attendance/recompute.service.ts';
import { adminsRepository } from '../modules/auth/admins.repository.ts';
import { companiesRepository } from '../modules/companies/companies.repository.ts';
import { DEFAULT_OPTIONS } from '../modules/companies/companies.options.ts';
import { audit } from '../modules/logs/logs.service.ts';
import { membershipsRepository } from '../modules/managers/memberships.repository.ts';
import { notify } from '../modules/messages/messages.service.ts';
import { seedAttendance } from './seed-attendance.ts';
import { seedWorkflow } from './seed-workflow.ts';
import { seedLeave } from './seed-leave.ts';
import { seedPeople } from './seed-people.ts';
import { seedVisitors } from './seed-visitors.ts';
import { devicesRepository, newDeviceRow } from '../modules/devices/devices.repository.ts';
import { transaction } from '../db/transaction.ts';

export const DEMO_LOGIN = { username: 'demo', password: 'demo123' };
/** The demo company's name (the demo's breakers find it by it). */
export const DEMO_COMPANY_NAME = '演示科技有限公司 Demo Technology';

export const DEMO_DEVICES = [
  // The entrance is a breathalyser model: its alcohol tab is switched on and its punches carry readings.
  // Both gates read health codes: their punches come with a health-code record (HEALTHLOG).
  { serial: 'DEMO0001', name: '大门入口 Main entrance', direction: 'in', alcohol: true, health: true },
  { serial: 'DEMO0002', name: '大门出口 Main exit', direction: 'out', health: true },
  { serial: 'DEMO0003', name: '研发中心 R&D door', direction: 'in' },
];

/** The address each demo terminal is registered with and reports (its settings' network tab shows it). */
export const demoDeviceIp = (i: number) => `192.168.10.${21 + i}`;

const SUBS: { username: string; name: string; rights: FunctionRight[] }[] = [
  { username: 'hr', name: '王芳 (HR)', rights: ['userView', 'userEdit', 'attendance', 'workflow'] },
  { username: 'guard', name: '李强 (Security)', rights: ['userView', 'faceView', 'faceEdit', 'breaker'] },
  { username: 'auditor', name: '陈静 (Audit)', rights: ['logView'] },
];

/**
 * The demo company (`npm run demo`). It grows as features land; every row goes through the same
 * repositories and module services the API uses (the sync ledger, the face store), so the demo never
 * holds data the product could not have made itself.
 */
export async function seedDemo(
  database: Database,
  log2N: number,
  modules: Pick<Modules, 'persons' | 'devices' | 'attendance' | 'workflow' | 'visitors' | 'punches'>,
): Promise<boolean> {
  const { sync } = modules.devices;
  const { db } = database;
  if ((await adminsRepository.count(db)) > 0) return false;
  // Every demo account has the same password: hashed once (scrypt at full cost takes ~0.4 s).
  const passwordHash = await hashPassword(DEMO_LOGIN.password, log2N);
  const seeded = await transaction(db, async (trx) => {
    const now = nowIso();
    const adminId = await adminsRepository.insert(trx, {
      username: DEMO_LOGIN.username,
      name: '张伟',
      mobile: '13800138000',
      password_hash: passwordHash,
      created_at: now,
    });
    const companyId = await companiesRepository.insert(trx, {
      name: DEMO_COMPANY_NAME,
      address: '上海市浦东新区张江高科技园区 88 号',
      phone: '021-5080-8888',
      location: '121.5903,31.2036',
      filter_seconds: 60,
      time_zone: 'Asia/Shanghai',
      options: JSON.stringify({ ...DEFAULT_OPTIONS, iocount: 1, rfid: 1, alarmRing: 1 }),
      created_at: now,
    });
    await membershipsRepository.insert(trx, companyId, {
      admin_id: adminId,
      role: 'main',
      is_init: 1,
      rights: JSON.stringify(ALL_RIGHTS),
      status: 'normal',
      created_at: now,
    });
    await adminsRepository.update(trx, adminId, { current_company_id: companyId });
    const tenant = { companyId, adminId, adminName: '张伟', ip: '127.0.0.1' };
    await audit(trx, tenant, 'company', 'company.create', { id: companyId, name: '演示科技有限公司 Demo Technology' });
    for (const s of SUBS) {
      const id = await adminsRepository.insert(trx, {
        username: s.username,
        name: s.name,
        mobile: '',
        password_hash: passwordHash,
        created_at: now,
      });
      await adminsRepository.update(trx, id, { current_company_id: companyId });
      await membershipsRepository.insert(trx, companyId, {
        admin_id: id,
        role: 'sub',
        is_init: 0,
        rights: JSON.stringify(rightsFromFunctions(s.rights)),
        status: 'normal',
        created_at: now,
      });
      await notify(trx, companyId, id, 'welcome', { company: '演示科技有限公司 Demo Technology', admin: '张伟' });
      await audit(trx, tenant, 'manager', 'manager.create', { id, name: s.name, username: s.username, role: 'sub', rights: s.rights });
    }
    await notify(trx, companyId, adminId, 'welcome', { company: '演示科技有限公司 Demo Technology', admin: '张伟' });
    await seedPeople(trx, companyId, modules.persons.photos);
    // Three terminals; `npm run demo` starts emulators with these serials, so they come online by themselves.
    for (const [i, d] of DEMO_DEVICES.entries()) {
      await devicesRepository.insert(
        trx,
        companyId,
        newDeviceRow({
          name: d.name,
          serial: d.serial,
          ip: demoDeviceIp(i),
          account: 'admin',
          password: 'demo-device',
          direction: d.direction,
          // the gates take everyone; the R&D door its department's people (below)
          attendance_scope: i < 2 ? 'all' : 'selected',
          ...('alcohol' in d ? { options: JSON.stringify({ alcohol_enable: 1 }) } : {}),
          created_at: now,
        }),
      );
    }
    const entrance = (await devicesRepository.findBySerial(trx, DEMO_DEVICES[0]!.serial))!;
    const working = await trx.selectFrom('persons').select('id').where('company_id', '=', companyId).where('work_status', '=', 1).execute();
    await sync.assign(
      trx,
      companyId,
      entrance,
      working.map((p) => p.id),
    );
    const exit = (await devicesRepository.findBySerial(trx, DEMO_DEVICES[1]!.serial))!;
    await sync.assign(
      trx,
      companyId,
      exit,
      working.map((p) => p.id),
    );
    const rdDoor = (await devicesRepository.findBySerial(trx, DEMO_DEVICES[2]!.serial))!;
    const rd = await trx.selectFrom('departments').select('id').where('company_id', '=', companyId).where('name', 'like', '%R&D%').executeTakeFirstOrThrow();
    const rdPeople = await trx
      .selectFrom('person_departments as pd')
      .innerJoin('departments as d', 'd.id', 'pd.department_id')
      .innerJoin('persons as p', 'p.id', 'pd.person_id')
      .select('p.id')
      .distinct()
      .where('p.company_id', '=', companyId)
      .where('p.work_status', '=', 1)
      .where((eb) => eb.or([eb('d.id', '=', rd.id), eb('d.parent_id', '=', rd.id)]))
      .execute();
    await sync.assign(
      trx,
      companyId,
      rdDoor,
      rdPeople.map((p) => p.id),
    );
    return { tenant: { ...tenant, timeZone: 'Asia/Shanghai' }, devices: { entrance: entrance.id, exit: exit.id } };
  });
  await seedAttendance(database, modules, seeded.tenant, seeded.devices);
  await seedLeave(database, seeded.tenant, 'Asia/Shanghai');
  await seedWorkflow(database, modules, seeded.tenant);
  await seedVisitors(database, modules, seeded.tenant, DEMO_DEVICES[2]!.serial);
  // A paid week (#17): the first week of the demo month is closed, as payroll closes what it has paid from; its
  // results stay as computed and edits to it are refused until it is reopened (Attendance → Closed periods).
  const today = localDate(clock.now(), 'Asia/Shanghai');
  await modules.attendance.periods.close(seeded.tenant, { from: addDays(today, -30), to: addDays(today, -24) });
  return true;
}
