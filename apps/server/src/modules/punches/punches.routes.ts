import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { API_PREFIX, LIMITS } from '@faceadmin/shared';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { t } from '../../i18n/i18n.ts';
import { notFound } from '../../lib/errors.ts';
import { Flag, Id, Nullable, Page, PageQuery, pageOf } from '../../lib/schemas.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { fileResponses, responses } from '../../plugins/envelope.ts';
import { punchesRepository, type PunchFilter } from './punches.repository.ts';
import { punchPhotoStore } from './punches.service.ts';

const Filter = {
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  device_id: Type.Optional(Id),
  person_id: Type.Optional(Id),
  from: Type.Optional(Type.String({ format: 'date' })),
  to: Type.Optional(Type.String({ format: 'date' })),
  stranger: Type.Optional(Flag),
  /** minutes east of UTC of the viewer, so from/to are the viewer's calendar days */
  tzOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
};
const ListQuery = Type.Object({ ...PageQuery, ...Filter });
const ExportBody = Type.Object(Filter);
const PunchSchema = Type.Object({
  id: Type.Integer(),
  person_id: Nullable(Type.Integer()),
  number: Type.String(),
  name: Type.String(),
  device_id: Type.Integer(),
  device: Type.String(),
  direction: Type.String(),
  day: Type.String(),
  time: Type.String(),
  utc: Type.String(),
  status: Type.Integer(),
  verify: Type.Integer(),
  temperature: Nullable(Type.Number()),
  mask: Nullable(Type.Integer()),
  alcohol: Nullable(Type.Number()),
  /** the reading failed the device's threshold (spec §3 alcohol tab) */
  alcohol_over: Type.Boolean(),
  pic_url: Type.String(),
  stranger: Type.Boolean(),
});

type Row = Awaited<ReturnType<typeof punchesRepository.list>>['items'][number];
/** Day and time as the terminal saw them (its local clock): what people expect on the record. */
const present = (r: Row) => ({
  id: r.id,
  person_id: r.person_id,
  number: r.person_number ?? r.pin,
  name: r.person_name ?? '',
  device_id: r.device_id,
  device: r.device_name,
  direction: r.direction,
  day: r.local_time.slice(0, 10),
  time: r.local_time.slice(11),
  utc: r.time,
  status: r.status,
  verify: r.verify,
  temperature: r.temperature,
  mask: r.mask,
  alcohol: r.alcohol,
  alcohol_over: r.alcohol_over === 1,
  pic_url: r.photo ? `${API_PREFIX}/attendance/photo/${r.id}` : '',
  stranger: r.stranger === 1,
});

function filterOf(q: {
  keyword?: string;
  device_id?: number;
  person_id?: number;
  from?: string;
  to?: string;
  stranger?: number;
  tzOffset?: number;
}): Omit<PunchFilter, 'offset' | 'limit'> {
  const offset = (q.tzOffset ?? 480) * 60_000;
  const dayStart = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) - offset).toISOString();
  return {
    keyword: q.keyword?.trim() || undefined,
    deviceId: q.device_id,
    personId: q.person_id,
    from: q.from ? dayStart(q.from) : undefined,
    to: q.to ? new Date(Date.parse(dayStart(q.to)) + 86400_000).toISOString() : undefined,
    stranger: q.stranger,
  };
}

/** Punch records (spec §2 /attendance/list); the "result" column arrives with the attendance engine. */
export default async function punchesRoutes(app: App) {
  const { db } = app.database;
  const photos = punchPhotoStore(app.config.dataDir);
  const tags = ['attendance'];
  const view = { access: { right: 'attendance' as const } };

  app.get('/attendance/list', { config: view, schema: { tags, querystring: ListQuery, response: responses(Page(PunchSchema)) } }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await punchesRepository.list(db, tenantOf(req).companyId, { ...filterOf(req.query), offset, limit: pageSize });
    return reply.ok({ items: r.items.map(present), total: r.total, page, pageSize });
  });

  app.get(
    '/attendance/photo/:id',
    { config: { ...view, cookieAuth: true }, schema: { tags, params: Type.Object({ id: Id }), response: fileResponses('image/jpeg') } },
    async (req, reply) => {
      const p = await punchesRepository.find(db, tenantOf(req).companyId, req.params.id);
      const file = p?.photo ? photos.pathOf(p.company_id, p.device_id, p.photo) : undefined;
      if (!file) throw notFound();
      return (reply as FastifyReply)
        .header('cache-control', 'private, max-age=86400')
        .type('image/jpeg')
        .send(await readFile(file));
    },
  );

  app.post(
    '/attendance/export',
    { config: view, schema: { tags, body: ExportBody, response: fileResponses('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') } },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const lang = req.lang;
      const out = new PassThrough();
      (async () => {
        const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
        const ws = wb.addWorksheet(t(lang, 'punch.sheet'));
        ws.columns = ['number', 'name', 'device', 'day', 'time', 'temperature', 'mask', 'alcohol'].map((k) => ({
          header: t(lang, `punch.fields.${k}`),
          key: k,
          width: 18,
        }));
        const filter = filterOf(req.body);
        for (let offset = 0; ; offset += 1000) {
          const r = await punchesRepository.list(db, tenant.companyId, { ...filter, offset, limit: 1000 }, false);
          for (const p of r.items.map(present)) ws.addRow(p).commit();
          if (r.items.length < 1000) break;
        }
        ws.commit();
        await wb.commit();
      })().catch((e: unknown) => out.destroy(e as Error));
      return (reply as FastifyReply)
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="punches.xlsx"')
        .send(out);
    },
  );
}
