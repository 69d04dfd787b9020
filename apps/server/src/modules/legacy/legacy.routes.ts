import { LEGACY_FILE_ENCODINGS, LEGACY_KINDS, legacyApi, type LegacyKind } from '@faceadmin/shared';
import { uploadOf } from '../../lib/multipart.ts';
import { invalid } from '../../lib/errors.ts';
import type { App } from '../../module.ts';
import { tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { LegacyEncoding } from './parse.ts';
import type { LegacyService } from './legacy.service.ts';

/** An export of the old software, at most this large (a year of a few hundred people's punches is a few MB). */
export const LEGACY_MAX_BYTES = 40 * 1024 * 1024;

/** The old software's files (issue #30, docs/legacy-import.md): they write people and punches, so the people's edit right. */
export default async function legacyRoutes(app: App, svc: LegacyService) {
  const tags = ['legacy'];
  const edit = { access: { right: 'person' as const, level: 2 } };
  app.post(legacyApi.preview.path, { config: edit, schema: routeSchema(legacyApi.preview, { tags }) }, async (req, reply) => {
    const { data, filename, fields } = await uploadOf(req, LEGACY_MAX_BYTES, (f) => {
      if (!(LEGACY_KINDS as readonly string[]).includes(f.kind ?? '')) throw invalid('kind', f.kind ? 'reasons.invalid' : 'reasons.required');
      if (f.encoding && !(LEGACY_FILE_ENCODINGS as readonly string[]).includes(f.encoding)) throw invalid('encoding');
    });
    const encoding = fields.encoding && fields.encoding !== 'xlsx' ? (fields.encoding as LegacyEncoding) : undefined;
    return reply.ok(await svc.preview(tenantOf(req), { data, filename }, fields.kind as LegacyKind, encoding));
  });
  app.post(legacyApi.run.path, { config: edit, schema: routeSchema(legacyApi.run, { tags }) }, async (req, reply) =>
    reply.ok(await svc.run(tenantOf(req), req.lang, req.body)),
  );
  app.get(legacyApi.info.path, { config: edit, schema: routeSchema(legacyApi.info, { tags }) }, async (req, reply) =>
    reply.ok(await svc.info(tenantOf(req), req.query.id)),
  );
}
