import { sendStored } from '../../lib/files/reply.ts';
import { strangersApi, type StrangerExportBody } from '@faceadmin/shared';
import type { FastifyReply } from 'fastify';
import type { App } from '../../module.ts';
import type { Database, Executor } from '../../db/database.ts';
import { t } from '../../i18n/i18n.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { pageOf } from '../../lib/schemas.ts';
import { zonedToUtcMs } from '../../lib/time.ts';
import { keysetPages, mapPages, sendXlsx, xlsxStream } from '../../lib/xlsx.ts';
import { authOf, tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { PunchPhotoStore } from '../punches/punches.service.ts';
import { presentStranger } from './strangers.presenter.ts';
import { strangersRepository, type StrangerFilter } from './strangers.repository.ts';

/** Attendance records or face-device view: who watches the doors sees who was refused at them. */
const VIEW: Access = { anyOf: [{ right: 'attendance' }, { right: 'face', level: 1 }] };

/**
 * The filters: `from`/`to` are the company's days ([from 00:00, the day after `to` 00:00) in its zone), a forward
 * range; a device must be the company's.
 */
async function filterOf(db: Executor, companyId: number, q: StrangerExportBody, zone: string): Promise<Omit<StrangerFilter, 'offset' | 'limit'>> {
  if (q.from && q.to && q.from > q.to) throw invalid('to', 'reasons.dateOrder');
  if (q.device_id && !(await strangersRepository.deviceOf(db, companyId, q.device_id))) throw notFound();
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    deviceId: q.device_id,
    from: q.from ? new Date(zonedToUtcMs(q.from, zone)).toISOString() : undefined,
    to: q.to ? new Date(zonedToUtcMs(next(q.to), zone)).toISOString() : undefined,
  };
}

/** Strangers and refused faces (spec §2 /stranger): the list, their capture photos, the export. */
export default async function strangersRoutes(app: App, deps: { database: Database; photos: PunchPhotoStore }) {
  const { db } = deps.database;
  const { photos } = deps;
  const tags = ['strangers'];
  const view = { access: VIEW };

  app.get(strangersApi.list.path, { config: view, schema: routeSchema(strangersApi.list, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const { page, pageSize, offset } = pageOf(req.query);
    const f = await filterOf(db, companyId, req.query, authOf(req).timeZone);
    const r = await strangersRepository.list(db, companyId, { ...f, offset, limit: pageSize });
    return reply.ok({ items: r.items.map(presentStranger), total: r.total, page, pageSize });
  });

  app.get(strangersApi.photo.path, { config: { ...view, cookieAuth: true }, schema: routeSchema(strangersApi.photo, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const r = await strangersRepository.find(db, companyId, req.params.id);
    const file = r?.photo ? await photos.open(companyId, r.device_id, r.photo) : undefined;
    if (!file) throw notFound();
    return sendStored((reply as FastifyReply).header('cache-control', 'private, max-age=86400').type('image/jpeg'), file);
  });

  app.post(strangersApi.export.path, { config: view, schema: routeSchema(strangersApi.export, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const lang = req.lang;
    const f = await filterOf(db, companyId, req.body, authOf(req).timeZone);
    const keys = ['device', 'day', 'time', 'kind', 'name', 'number', 'temperature', 'photo'];
    const columns = keys.map((k) => ({ header: t(lang, `stranger.fields.${k}`), key: k, width: k === 'photo' ? 60 : 18 }));
    // The photo column is a link a signed-in browser opens (the session cookie carries the access).
    const origin = `${req.protocol}://${req.host}`;
    const rows = mapPages(
      keysetPages(async (before, limit) => (await strangersRepository.list(db, companyId, { ...f, before, offset: 0, limit }, false)).items),
      (row) => {
        const s = presentStranger(row);
        return {
          device: s.device,
          day: s.day,
          time: s.time,
          kind: t(lang, `stranger.kinds.${s.kind}`),
          name: s.name,
          number: s.number,
          temperature: s.temperature ?? '',
          photo: s.pic_url ? { text: origin + s.pic_url, hyperlink: origin + s.pic_url } : '',
        };
      },
    );
    return sendXlsx(reply, 'strangers.xlsx', await xlsxStream(t(lang, 'stranger.sheet'), columns, rows));
  });
}
