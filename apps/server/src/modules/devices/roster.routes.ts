import { API_PREFIX, devicesApi, type Language, type RosterItem, type RosterSiteItem } from '@faceadmin/shared';
import { t } from '../../i18n/i18n.ts';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { sendStored } from '../../lib/files/reply.ts';
import { pageOf } from '../../lib/schemas.ts';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { devicesRepository } from './devices.repository.ts';
import type { FaceVerdict, RosterService } from './roster.service.ts';

type Listed = Awaited<ReturnType<RosterService['list']>>['items'][number];

type SiteListed = Awaited<ReturnType<RosterService['listSite']>>['items'][number];

/** A terminal's face of a user, its address versioned by the read: a face read again is fetched again. */
const faceUrl = (deviceId: number, pin: string, face: string, readAt: string) =>
  face ? `${API_PREFIX}${devicesApi.rosterFace.path}?id=${deviceId}&pin=${encodeURIComponent(pin)}&v=${Math.floor(Date.parse(readAt) / 1000)}` : '';

/** A face's verdict for the review: why the check refuses it ('' it passes, none, or not checked yet), and whether it is still to be checked. */
const faceState = (lang: Language, v: FaceVerdict | 'unchecked' | undefined) => ({
  face_refused: v && v !== 'unchecked' && 'key' in v ? t(lang, v.key, v.params ?? {}) : '',
  face_checking: v === 'unchecked',
});

const presentSite = (lang: Language, r: SiteListed): RosterSiteItem => ({
  pin: r.pin,
  name: r.name,
  card: r.card,
  admin: r.admin,
  kind: r.kind === 'visitor' || r.kind === 'blackList' ? r.kind : 'normal',
  terminals: r.terminals.map((x) => ({
    id: x.id,
    name: x.name,
    user_name: x.user_name,
    face_url: faceUrl(x.id, r.pin, x.face, x.read_at),
    face_bytes: x.face_bytes,
    ...faceState(lang, x.verdict),
    managed: x.managed,
  })),
  face_from: r.face_from,
  match: r.match,
  split: r.split,
  twins: r.twins,
  person_id: r.person_id,
  person_number: r.person_number,
  person_name: r.person_name,
  managed: r.managed,
});

const present = (lang: Language, r: Listed): RosterItem => ({
  pin: r.pin,
  name: r.name,
  card: r.card,
  valid_from: r.valid_from,
  valid_to: r.valid_to,
  admin: r.admin === 1,
  kind: r.kind === 'visitor' || r.kind === 'blackList' ? r.kind : 'normal',
  face_url: faceUrl(r.device_id, r.pin, r.face, r.read_at),
  ...faceState(lang, r.verdict),
  match: r.match,
  person_id: r.person_id,
  person_number: r.person_number,
  person_name: r.person_name,
  read_at: r.read_at,
  managed: r.managed,
  removing: r.removing,
});

/** What a terminal holds, as its roster read brought it (issue #30): the review of a take-over reads it. */
export default async function rosterRoutes(app: App, deps: { database: Database; roster: RosterService }) {
  const tags = ['devices'];
  const view = { access: { right: 'face' as const, level: 1 } };
  const { db } = deps.database;
  const deviceOf = async (companyId: number, id: number) => {
    if (!(await devicesRepository.find(db, companyId, id))) throw notFound();
  };
  app.get(devicesApi.roster.path, { config: view, schema: routeSchema(devicesApi.roster, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    await deviceOf(companyId, req.query.id);
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await deps.roster.list(db, companyId, req.query.id, { offset, limit: pageSize }, req.query.show);
    return reply.ok({ items: r.items.map((x) => present(req.lang, x)), total: r.total, page, pageSize, counts: r.counts });
  });
  // it creates people: the people's edit right too, as /person/create asks
  const apply = {
    access: {
      allOf: [
        { right: 'face' as const, level: 2 },
        { right: 'person' as const, level: 2 },
      ],
    },
  };
  app.post(devicesApi.rosterApply.path, { config: apply, schema: routeSchema(devicesApi.rosterApply, { tags }) }, async (req, reply) =>
    reply.ok(await deps.roster.apply(tenantOf(req), req.lang, req.body)),
  );
  app.get(devicesApi.rosterSite.path, { config: view, schema: routeSchema(devicesApi.rosterSite, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    const { page, pageSize, offset } = pageOf(req.query);
    const r = await deps.roster.listSite(db, companyId, { offset, limit: pageSize }, req.query.show);
    return reply.ok({ items: r.items.map((x) => presentSite(req.lang, x)), total: r.total, page, pageSize, counts: r.counts });
  });
  // an apply's progress and result: for those who may apply (its result names people and terminals' users)
  app.get(devicesApi.rosterApplyInfo.path, { config: apply, schema: routeSchema(devicesApi.rosterApplyInfo, { tags }) }, async (req, reply) =>
    reply.ok(await deps.roster.applyInfo(tenantOf(req), req.query.id)),
  );
  app.get(devicesApi.rosterApplyCurrent.path, { config: apply, schema: routeSchema(devicesApi.rosterApplyCurrent, { tags }) }, async (req, reply) =>
    reply.ok(await deps.roster.applyCurrent(tenantOf(req))),
  );
  app.post(devicesApi.rosterSiteApply.path, { config: apply, schema: routeSchema(devicesApi.rosterSiteApply, { tags }) }, async (req, reply) =>
    reply.ok(await deps.roster.applySite(tenantOf(req), req.lang, req.body)),
  );
  // removing users from a terminal: the device's edit right (no person is written)
  const edit = { access: { right: 'face' as const, level: 2 } };
  app.post(devicesApi.rosterRemove.path, { config: edit, schema: routeSchema(devicesApi.rosterRemove, { tags }) }, async (req, reply) =>
    reply.ok(await deps.roster.remove(tenantOf(req), req.lang, req.body)),
  );
  app.get(devicesApi.rosterFace.path, { config: { ...view, cookieAuth: true }, schema: routeSchema(devicesApi.rosterFace, { tags }) }, async (req, reply) => {
    const { companyId } = tenantOf(req);
    await deviceOf(companyId, req.query.id);
    const file = await deps.roster.faceFile(companyId, req.query.id, req.query.pin);
    if (!file) throw notFound();
    return sendStored(reply.header('cache-control', 'private, max-age=86400').type('image/jpeg'), file);
  });
}
