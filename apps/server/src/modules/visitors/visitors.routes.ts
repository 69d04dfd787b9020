import { sendStored } from '../../lib/files/reply.ts';
import { selfVisitorsApi, visitApi, visitorsApi, type VisitLogExportBody } from '@faceadmin/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../i18n/i18n.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import { pageOf } from '../../lib/schemas.ts';
import { zonedToUtcMs } from '../../lib/time.ts';
import { pages, sendXlsx, xlsxStream } from '../../lib/xlsx.ts';
import type { App } from '../../module.ts';
import { authOf, personOf, tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { PHOTO_MAX_BYTES } from '../persons/photos.ts';
import type { PunchPhotoStore } from '../punches/punches.service.ts';
import { presentVisit } from './visitors.presenter.ts';
import type { VisitFilter } from './visitors.repository.ts';
import type { Inviter, VisitorsService } from './visitors.service.ts';

/** Inviting puts someone on the doors: the person-edit right, as adding a person does. */
const INVITE: Access = { right: 'person', level: 2 };
/** Reading the invitations is a view of people: the person-view right (a guard desk sees who is expected, issue #28). */
const VIEW: Access = { right: 'person', level: 1 };
/** spec §2/§3: the visitor log sits with the operation log under System → logs. */
const LOG: Access = { right: 'log' };
/** The doors: who invites picks them, who reads the log filters by them. */
const DOORS: Access = { anyOf: [{ right: 'person', level: 2 }, { right: 'log' }] };

/** The log's filters: `from`/`to` are the company's days ([from 00:00, the day after `to` 00:00) in its zone). */
function filterOf(q: VisitLogExportBody, zone: string): VisitFilter {
  if (q.from && q.to && q.from > q.to) throw invalid('to', 'reasons.dateOrder');
  const next = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    from: q.from ? new Date(zonedToUtcMs(q.from, zone)).toISOString() : undefined,
    to: q.to ? new Date(zonedToUtcMs(next(q.to), zone)).toISOString() : undefined,
    keyword: q.keyword?.trim() || undefined,
    deviceId: q.device_id,
    status: q.status,
  };
}

/** The link the visitor opens: on the console's own origin, as the browser of the inviter reached it. */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Visitors (#19): the console's invitations and visit log, an employee's invitations, the visitor's own page. */
export default async function visitorsRoutes(app: App, deps: { visitors: VisitorsService; punchPhotos: PunchPhotoStore }) {
  const { visitors, punchPhotos } = deps;
  const tags = ['visitors'];
  // spec §2: the visitor log (and visitors altogether: they need the visitor's phone to reach the server) is not in LAN mode
  const invite = { access: INVITE, notLan: true };
  const log = { access: LOG, notLan: true };
  const person = { access: 'person' as const, notLan: true };
  const open = { access: 'public' as const, notLan: true, rateLimit: { max: 30, timeWindow: 60_000 } };
  const admin = (req: FastifyRequest): Inviter => ({ kind: 'admin', tenant: tenantOf(req) });
  const employee = (req: FastifyRequest): Inviter => ({ kind: 'person', person: personOf(req) });

  // the console
  app.get(visitorsApi.list.path, { config: { access: VIEW, notLan: true }, schema: routeSchema(visitorsApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await visitors.list(admin(req), { keyword: req.query.keyword?.trim() || undefined, state: req.query.state, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(visitorsApi.doors.path, { config: { access: DOORS, notLan: true }, schema: routeSchema(visitorsApi.doors, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.doors(tenantOf(req).companyId)),
  );
  app.post(visitorsApi.invite.path, { config: invite, schema: routeSchema(visitorsApi.invite, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.invite(admin(req), req.body, originOf(req))),
  );
  app.post(visitorsApi.cancel.path, { config: invite, schema: routeSchema(visitorsApi.cancel, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.cancel(admin(req), req.body.id)),
  );
  app.get(visitorsApi.log.path, { config: log, schema: routeSchema(visitorsApi.log, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await visitors.visits(companyId, { ...filterOf(req.query, authOf(req).timeZone), offset, limit: pageSize });
    return reply.ok({ items: r.items.map(presentVisit), total: r.total, page, pageSize });
  });
  app.get(visitorsApi.logPhoto.path, { config: { ...log, cookieAuth: true }, schema: routeSchema(visitorsApi.logPhoto, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const r = await visitors.visit(companyId, req.params.id);
    const file = r?.photo ? await punchPhotos.open(companyId, r.device_id, r.photo) : undefined;
    if (!file) throw notFound();
    return sendStored((reply as FastifyReply).header('cache-control', 'private, max-age=86400').type('image/jpeg'), file);
  });
  app.post(visitorsApi.logExport.path, { config: log, schema: routeSchema(visitorsApi.logExport, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const lang = req.lang;
    const f = filterOf(req.body, authOf(req).timeZone);
    const keys = ['inviter', 'visitor', 'phone', 'door', 'time', 'status', 'photo'];
    const columns = keys.map((k) => ({ header: t(lang, `visitor.fields.${k}`), key: k, width: k === 'photo' ? 60 : 18 }));
    // The photo column is a link a signed-in browser opens (the session cookie carries the access).
    const origin = originOf(req);
    const rows = pages(async (offset, limit) =>
      (await visitors.visits(companyId, { ...f, offset, limit }, false)).items.map(presentVisit).map((v) => ({
        inviter: v.inviter,
        visitor: v.visitor,
        phone: v.phone,
        door: v.door,
        time: v.time,
        status: t(lang, `visitor.status.${v.status}`),
        photo: v.pic_url ? { text: origin + v.pic_url, hyperlink: origin + v.pic_url } : '',
      })),
    );
    return sendXlsx(reply, 'visits.xlsx', await xlsxStream(t(lang, 'visitor.sheet'), columns, rows));
  });

  // the self-service page
  app.get(selfVisitorsApi.list.path, { config: person, schema: routeSchema(selfVisitorsApi.list, { tags }) }, async (req, reply) => {
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await visitors.list(employee(req), { keyword: req.query.keyword?.trim() || undefined, state: req.query.state, offset, limit: pageSize });
    return reply.ok({ ...r, page, pageSize });
  });
  app.get(selfVisitorsApi.doors.path, { config: person, schema: routeSchema(selfVisitorsApi.doors, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.doors(personOf(req).companyId)),
  );
  app.post(selfVisitorsApi.invite.path, { config: person, schema: routeSchema(selfVisitorsApi.invite, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.invite(employee(req), req.body, originOf(req))),
  );
  app.post(selfVisitorsApi.cancel.path, { config: person, schema: routeSchema(selfVisitorsApi.cancel, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.cancel(employee(req), req.body.id)),
  );

  // the visitor's page: the link's token is the key
  app.get(visitApi.show.path, { config: open, schema: routeSchema(visitApi.show, { tags }) }, async (req, reply) =>
    reply.ok(await visitors.show(req.params.token)),
  );
  app.post(visitApi.face.path, { config: open, schema: routeSchema(visitApi.face, { tags }) }, async (req, reply) => {
    if (!req.isMultipart()) throw invalid('file', 'reasons.required');
    const file = await req.file({ limits: { fileSize: PHOTO_MAX_BYTES, files: 1 } });
    if (!file) throw invalid('file', 'reasons.required');
    const data = await file.toBuffer().catch(() => null);
    if (!data || file.file.truncated) throw badInput('errors.photoTooLarge', 'pic', { mb: PHOTO_MAX_BYTES / 1024 / 1024 });
    return reply.ok(await visitors.face(req.params.token, data));
  });
}
