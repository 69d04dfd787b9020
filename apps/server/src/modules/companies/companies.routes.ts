import { companiesApi } from '@faceadmin/shared';
import type { App } from '../../module.ts';
import { authOf, tenantOf } from '../../plugins/auth.ts';
import { routeSchema } from '../../plugins/envelope.ts';
import type { CompaniesService } from './companies.service.ts';

export default async function companiesRoutes(app: App, svc: CompaniesService) {
  const tags = ['companies'];
  app.get(companiesApi.list.path, { config: { access: 'session' }, schema: routeSchema(companiesApi.list, { tags }) }, async (req, reply) =>
    reply.ok(await svc.list(authOf(req))),
  );
  app.post(companiesApi.create.path, { config: { access: 'session' }, schema: routeSchema(companiesApi.create, { tags }) }, async (req, reply) =>
    reply.ok(await svc.create(authOf(req), req.body)),
  );
  app.get(companiesApi.info.path, { config: { access: 'company' }, schema: routeSchema(companiesApi.info, { tags }) }, async (req, reply) =>
    reply.ok(await svc.info(tenantOf(req))),
  );
  app.post(companiesApi.update.path, { config: { access: 'main' }, schema: routeSchema(companiesApi.update, { tags }) }, async (req, reply) =>
    reply.ok(await svc.update(tenantOf(req), req.body)),
  );
  // spec §6: internal testing enables diagnostic details; main administrators of a company with the option on.
  app.get(companiesApi.diagnostics.path, { config: { access: 'main' }, schema: routeSchema(companiesApi.diagnostics, { tags }) }, async (req, reply) => {
    await svc.requireInternalTesting(tenantOf(req));
    return reply.ok({
      version: app.appVersion,
      database: app.database.dialect,
      jobs: app.jobs.status().map((j) => ({
        name: j.name,
        runs: j.runs,
        failures: j.failures,
        running: j.running,
        last_started_at: j.lastStartedAt,
        last_duration_ms: j.lastDurationMs,
        last_error: j.lastError,
      })),
    });
  });
  app.post(companiesApi.setDefault.path, { config: { access: 'session' }, schema: routeSchema(companiesApi.setDefault, { tags }) }, async (req, reply) => {
    await svc.setDefault(authOf(req), req.body.company_id);
    return reply.ok(null);
  });
}
