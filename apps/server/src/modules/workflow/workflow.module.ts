import { defineModule, type Core } from '../../module.ts';
import type { CaptchaService } from '../auth/captcha.service.ts';
import type { SmsSender } from '../auth/sms.service.ts';
import type { CompanyCreatedHook } from '../companies/companies.service.ts';
import { applicationsService } from './applications.service.ts';
import { appsService, ensureBuiltins } from './apps.service.ts';
import { workflowFiles } from './files.ts';
import selfRoutes from './self.routes.ts';
import { selfService } from './self.service.ts';
import { workflowSheets } from './workflow.import.ts';
import workflowRoutes from './workflow.routes.ts';

/**
 * Approval workflows (issue #11): apps with versioned forms and processes, applications routed through the
 * process to approvers (people, department heads, administrators), decisions that reach attendance in the same
 * transaction, records with export and import; and the self-service page's API with its own person sessions.
 */
export function workflowModule(core: Core, deps: { sms: SmsSender | null; captcha: CaptchaService; companyCreated: CompanyCreatedHook }) {
  const apps = appsService(core.database);
  const files = workflowFiles(core.files);
  const applications = applicationsService(core.database, files);
  const self = selfService({ database: core.database, sms: deps.sms, captcha: deps.captcha });
  const sheets = workflowSheets(core.database, applications);
  // A new company starts with the built-in apps (existing companies get them on first use).
  deps.companyCreated.on((trx, e) => ensureBuiltins(trx, e.companyId));
  return defineModule({
    name: 'workflow',
    apps,
    applications,
    self,
    sheets,
    files,
    /** what the auth plugin asks about a person token */
    personLookup: self.lookup,
    routes: async (app) => {
      await workflowRoutes(app, { apps, applications, self, sheets, files });
      await selfRoutes(app, { applications, self, files });
    },
    jobs: [{ name: 'workflow.sessions.purge', every: 3600_000, exclusive: true, run: () => self.purge() }],
  });
}
