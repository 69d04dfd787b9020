import { healthApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import type { Database } from '../../db/database.ts';
import { t } from '../../i18n/i18n.ts';
import { zonedToUtcMs } from '../../lib/time.ts';
import { pageOf } from '../../lib/schemas.ts';
import { keysetPages, mapPages, sendXlsx, xlsxStream } from '../../lib/xlsx.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { healthRepository } from './health.repository.ts';
import { presentAlcohol, presentHealth } from './health.presenter.ts';

/** from/to are the company's calendar days (its time zone): [from 00:00, the day after to 00:00). */
function rangeOf(q: { keyword?: string | undefined; device_id?: number | undefined; from?: string | undefined; to?: string | undefined }, zone: string) {
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86400_000).toISOString().slice(0, 10);
  return {
    keyword: q.keyword?.trim() || undefined,
    deviceId: q.device_id,
    from: q.from ? new Date(zonedToUtcMs(q.from, zone)).toISOString() : undefined,
    to: q.to ? new Date(zonedToUtcMs(next(q.to), zone)).toISOString() : undefined,
  };
}
const NL = (v: string | number | null) => (v === null ? '' : v);

/** Health-code records (spec §3 "Health record") and alcohol records (spec §2 /attendance/alcohol). */
export default async function healthRoutes(app: App, deps: { database: Database }) {
  const { db } = deps.database;
  const tags = ['attendance'];
  const view = { access: { right: 'attendance' as const } };
  // spec §2: no alcohol records in LAN mode (docs/lan-mode.md)
  const alcohol = { ...view, notLan: true };

  app.get(healthApi.list.path, { config: view, schema: routeSchema(healthApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const f = { ...rangeOf(req.query, authOf(req).timeZone), color: req.query.color };
    const r = await healthRepository.list(db, tenantOf(req).companyId, { ...f, offset, limit: pageSize });
    return reply.ok({ items: r.items.map(presentHealth), total: r.total, page, pageSize });
  });

  app.post(healthApi.export.path, { config: view, schema: routeSchema(healthApi.export, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const lang = req.lang;
    const f = { ...rangeOf(req.body, authOf(req).timeZone), color: req.body.color };
    const keys = [
      'number',
      'name',
      'id_number',
      'device',
      'place',
      'day',
      'time',
      'temperature',
      'color',
      'nat_time',
      'nat_result',
      'trip',
      'vaccine_count',
      'vaccine_time',
    ];
    const columns = keys.map((k) => ({ header: t(lang, `health.fields.${k}`), key: k }));
    const rows = mapPages(
      keysetPages(async (before, limit) => (await healthRepository.list(db, companyId, { ...f, before, offset: 0, limit }, false)).items),
      (row) => {
        const h = presentHealth(row);
        return {
          ...h,
          temperature: NL(h.temperature),
          vaccine_count: NL(h.vaccine_count),
          color: h.color ? t(lang, `health.colors.${h.color}`) : '',
          nat_result: h.nat_result ? t(lang, `health.nat.${h.nat_result}`) : '',
        };
      },
    );
    return sendXlsx(reply, 'health.xlsx', await xlsxStream(t(lang, 'health.sheet'), columns, rows));
  });

  app.get(healthApi.alcoholList.path, { config: alcohol, schema: routeSchema(healthApi.alcoholList, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const f = { ...rangeOf(req.query, authOf(req).timeZone), over: req.query.over };
    const r = await healthRepository.alcohol(db, tenantOf(req).companyId, { ...f, offset, limit: pageSize });
    return reply.ok({ items: r.items.map(presentAlcohol), total: r.total, page, pageSize });
  });

  app.post(healthApi.alcoholExport.path, { config: alcohol, schema: routeSchema(healthApi.alcoholExport, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const lang = req.lang;
    const f = { ...rangeOf(req.body, authOf(req).timeZone), over: req.body.over };
    const columns = ['number', 'name', 'device', 'day', 'time', 'alcohol', 'over', 'temperature'].map((k) => ({
      header: t(lang, `health.alcoholFields.${k}`),
      key: k,
    }));
    const rows = mapPages(
      keysetPages(async (before, limit) => (await healthRepository.alcohol(db, companyId, { ...f, before, offset: 0, limit }, false)).items),
      (row) => {
        const a = presentAlcohol(row);
        return { ...a, over: t(lang, a.over ? 'health.over' : 'health.under'), temperature: NL(a.temperature) };
      },
    );
    return sendXlsx(reply, 'alcohol.xlsx', await xlsxStream(t(lang, 'health.alcoholSheet'), columns, rows));
  });
}
