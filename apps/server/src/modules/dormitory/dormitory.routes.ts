import { dormitoryApi } from '@faceadmin/shared';
import type { App, Core } from '../../module.ts';
import { authOf, tenantOf, type Access } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import { dormitoryService } from './dormitory.service.ts';

/** The guards' and dormitory managers' screens read punches: the attendance right or face-device view. */
const VIEW: Access = { anyOf: [{ right: 'attendance' }, { right: 'face', level: 1 }] };
/** Setting the hour and the buildings: the attendance right or face-device edit. */
const EDIT: Access = { anyOf: [{ right: 'attendance' }, { right: 'face', level: 2 }] };

export default async function dormitoryRoutes(app: App, deps: Pick<Core, 'database'>) {
  const { database } = deps;
  const tags = ['dormitory'];
  app.get(dormitoryApi.status.path, { config: { access: VIEW }, schema: routeSchema(dormitoryApi.status, { tags }) }, async (req, reply) =>
    reply.ok(await dormitoryService.status(database.db, tenantOf(req).companyId, authOf(req).timeZone, req.query.return_by)),
  );
  app.get(dormitoryApi.settings.path, { config: { access: VIEW }, schema: routeSchema(dormitoryApi.settings, { tags }) }, async (req, reply) =>
    reply.ok(await dormitoryService.settings(database.db, tenantOf(req).companyId)),
  );
  app.post(dormitoryApi.saveSettings.path, { config: { access: EDIT }, schema: routeSchema(dormitoryApi.saveSettings, { tags }) }, async (req, reply) =>
    reply.ok(await dormitoryService.saveSettings(database, tenantOf(req), req.body)),
  );
}
