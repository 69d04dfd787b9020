import { sendStored } from '../../lib/files/reply.ts';
import { punchesApi, type PunchExportBody } from '@faceadmin/shared';
import type { FastifyReply } from 'fastify';
import type { App } from '../../module.ts';
import type { Database, Executor } from '../../db/database.ts';
import { keysetPages, mapPages, sendXlsx, xlsxStream } from '../../lib/xlsx.ts';
import { t } from '../../i18n/i18n.ts';
import { notFound } from '../../lib/errors.ts';
import { pageOf } from '../../lib/schemas.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { zonedToUtcMs } from '../../lib/time.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { punchesRepository, type PunchFilter } from './punches.repository.ts';
import type { PunchPhotoStore } from './punches.service.ts';
import { presentPunch } from './punches.presenter.ts';

/** The filters; `from`/`to` are days of the company's zone (as every date the console sends); the keyword looked up once. */
async function filterOf(db: Executor, companyId: number, q: PunchExportBody, zone: string): Promise<Omit<PunchFilter, 'offset' | 'limit'>> {
  const dayStart = (d: string) => new Date(zonedToUtcMs(d, zone)).toISOString();
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86400_000).toISOString().slice(0, 10);
  const keyword = q.keyword?.trim();
  return {
    keyword: keyword ? await punchesRepository.keyword(db, companyId, keyword) : undefined,
    deviceId: q.device_id,
    personId: q.person_id,
    from: q.from ? dayStart(q.from) : undefined,
    to: q.to ? dayStart(next(q.to)) : undefined,
    stranger: q.stranger,
  };
}

/** Punch records (spec §2 /attendance/list), each with the result of the attendance day that used it. */
export default async function punchesRoutes(app: App, deps: { database: Database; photos: PunchPhotoStore }) {
  const { db } = deps.database;
  const { photos } = deps;
  const tags = ['attendance'];
  const view = { access: { right: 'attendance' as const } };

  app.get(punchesApi.list.path, { config: { ...view, apiScope: 'punches:read' }, schema: routeSchema(punchesApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const { companyId } = tenantOf(req);
    const filter = await filterOf(db, companyId, req.query, authOf(req).timeZone);
    const r = await punchesRepository.list(db, companyId, { ...filter, offset, limit: pageSize });
    const results = await punchesRepository.results(db, r.items);
    return reply.ok({ items: r.items.map((p) => presentPunch(p, results.get(p.id) ?? null)), total: r.total, more: r.more, page, pageSize });
  });

  // A capture photo is what the door saw: the watchers of doors (face view) see it on their screens too.
  const photoAccess = { anyOf: [{ right: 'attendance' as const }, { right: 'face' as const, level: 1 }] };
  app.get(punchesApi.photo.path, { config: { access: photoAccess, cookieAuth: true }, schema: routeSchema(punchesApi.photo, { tags }) }, async (req, reply) => {
    const p = await punchesRepository.find(db, tenantOf(req).companyId, req.params.id);
    const file = p?.photo ? await photos.open(p.company_id, p.device_id, p.photo) : undefined;
    if (!file) throw notFound();
    return sendStored((reply as FastifyReply).header('cache-control', 'private, max-age=86400').type('image/jpeg'), file);
  });

  app.post(punchesApi.export.path, { config: { ...view, apiScope: 'punches:read' }, schema: routeSchema(punchesApi.export, { tags }) }, async (req, reply) => {
    const tenant = tenantOf(req);
    const lang = req.lang;
    const columns = ['number', 'name', 'device', 'day', 'time', 'temperature', 'mask', 'alcohol'].map((k) => ({
      header: t(lang, `punch.fields.${k}`),
      key: k,
    }));
    const filter = await filterOf(db, tenant.companyId, req.body, authOf(req).timeZone);
    const rows = mapPages(
      keysetPages(async (before, limit) => (await punchesRepository.list(db, tenant.companyId, { ...filter, before, offset: 0, limit }, false)).items),
      (p) => presentPunch(p),
    );
    return sendXlsx(reply, 'punches.xlsx', await xlsxStream(t(lang, 'punch.sheet'), columns, rows));
  });
}
