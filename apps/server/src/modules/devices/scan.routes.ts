import { devicesApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { ScanService } from './scan.service.ts';

/** POST /device/scan: ISAPI terminals in an address range (face-device edit: what it finds is offered for adding). */
export default async function scanRoutes(app: App, scan: ScanService) {
  const edit = { access: { right: 'face' as const, level: 2 } };
  app.post(devicesApi.scan.path, { config: edit, schema: routeSchema(devicesApi.scan, { tags: ['devices'] }) }, async (req, reply) =>
    reply.ok(await scan.scan(tenantOf(req), req.body)),
  );
}
