import {
  BUILTIN_KINDS,
  type AppInput,
  type AppUpdate,
  type FormSchema,
  type FormVersion,
  type Language,
  type ProcessTree,
  type ProcessVersion,
  type WorkflowApp,
  type WorkflowKind,
} from '@faceadmin/shared';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { BUILTIN_ICONS, defaultForm, defaultProcess, engineFields } from './builtins.ts';
import { checkForm, checkProcess } from './process.ts';
import { appName } from './workflow.presenter.ts';
import { workflowRepository as repo, type AppRow } from './workflow.repository.ts';

/** Creates the built-in apps a company lacks (with a new company, or on first use), each with its first form and process. */
export async function ensureBuiltins(ex: Executor, companyId: number): Promise<void> {
  const have = new Set(await repo.builtinKinds(ex, companyId));
  const missing = BUILTIN_KINDS.filter((k) => !have.has(k));
  if (!missing.length) return;
  const at = nowIso();
  for (const kind of missing) {
    // The name stays empty: it is shown in the reader's language until an administrator names the app.
    const id = await repo.insertApp(ex, {
      company_id: companyId,
      name: '',
      icon: BUILTIN_ICONS[kind],
      sort: BUILTIN_KINDS.indexOf(kind) + 1,
      enabled: 1,
      kind,
      builtin: 1,
      scope: 'everyone',
      department_ids: '[]',
      person_ids: '[]',
      description: '',
      form_version: 1,
      process_version: 1,
      created_at: at,
      updated_at: at,
    });
    await repo.insertVersion(ex, 'workflow_forms', companyId, {
      app_id: id,
      version: 1,
      body: JSON.stringify(defaultForm(kind)),
      created_by: null,
      created_at: at,
    });
    await repo.insertVersion(ex, 'workflow_processes', companyId, {
      app_id: id,
      version: 1,
      body: JSON.stringify(defaultProcess()),
      created_by: null,
      created_at: at,
    });
  }
}

/** Apps (spec §2 /workflow/index), their versioned forms and processes. */
export function appsService(database: Database) {
  const { db } = database;

  /** Built-ins on first use; concurrent first reads create them once (the unique index on built-in kinds). */
  async function ready(companyId: number) {
    if ((await repo.builtinKinds(db, companyId)).length >= BUILTIN_KINDS.length) return;
    try {
      await transaction(db, (trx) => ensureBuiltins(trx, companyId));
    } catch (e) {
      // Another request created them first: theirs stand.
      if ((await repo.builtinKinds(db, companyId)).length < BUILTIN_KINDS.length) throw e;
    }
  }

  async function present(ex: Executor, lang: Language, companyId: number, rows: AppRow[]): Promise<WorkflowApp[]> {
    const depIds = new Set<number>();
    const personIds = new Set<number>();
    for (const r of rows) {
      for (const id of parseJson<number[]>(r.department_ids, [])) depIds.add(id);
      for (const id of parseJson<number[]>(r.person_ids, [])) personIds.add(id);
    }
    const deps = new Map((await repo.departments(ex, companyId)).filter((d) => depIds.has(d.id)).map((d) => [d.id, d.name]));
    const people = new Map((await repo.persons(ex, companyId, [...personIds])).map((p) => [p.id, p.name]));
    const pending = await repo.pendingByApp(ex, companyId);
    return rows.map((r) => ({
      id: r.id,
      name: appName(lang, r),
      icon: r.icon,
      sort: r.sort,
      enabled: r.enabled === 1,
      kind: r.kind as WorkflowKind,
      builtin: r.builtin === 1,
      scope: r.scope as WorkflowApp['scope'],
      departments: parseJson<number[]>(r.department_ids, [])
        .filter((id) => deps.has(id))
        .map((id) => ({ id, name: deps.get(id)! })),
      persons: parseJson<number[]>(r.person_ids, [])
        .filter((id) => people.has(id))
        .map((id) => ({ id, name: people.get(id)! })),
      description: r.description,
      form_version: r.form_version,
      process_version: r.process_version,
      pending: pending.get(r.id) ?? 0,
      updated_at: r.updated_at,
    }));
  }

  async function one(ex: Executor, lang: Language, companyId: number, id: number): Promise<WorkflowApp> {
    const row = await repo.app(ex, companyId, id);
    if (!row) throw notFound();
    return (await present(ex, lang, companyId, [row]))[0]!;
  }

  /** Who may apply: the departments and people named must be this company's. */
  async function checkScope(ex: Executor, companyId: number, input: AppInput) {
    if (input.scope === 'departments' && !input.department_ids.length) throw invalid('department_ids', 'reasons.required');
    if (input.scope === 'people' && !input.person_ids.length) throw invalid('person_ids', 'reasons.required');
    const deps = new Set((await repo.departments(ex, companyId)).map((d) => d.id));
    if (input.department_ids.some((id) => !deps.has(id))) throw invalid('department_ids');
    if ((await repo.persons(ex, companyId, input.person_ids)).length !== input.person_ids.length) throw invalid('person_ids');
  }
  const appColumns = (input: AppInput) => ({
    name: input.name.trim(),
    icon: input.icon,
    sort: input.sort,
    enabled: input.enabled ? 1 : 0,
    scope: input.scope,
    department_ids: JSON.stringify(input.scope === 'departments' ? input.department_ids : []),
    person_ids: JSON.stringify(input.scope === 'people' ? input.person_ids : []),
    description: input.description?.trim() ?? '',
  });

  async function version<T>(table: 'workflow_forms' | 'workflow_processes', tenant: Tenant, appId: number, v?: number) {
    const app = await repo.app(db, tenant.companyId, appId);
    if (!app) throw notFound();
    const want = v ?? (table === 'workflow_forms' ? app.form_version : app.process_version);
    const row = await repo.version(db, table, tenant.companyId, appId, want);
    if (!row) throw notFound();
    return { app_id: row.app_id, version: row.version, body: parseJson<T>(row.body, {} as T), created_at: row.created_at };
  }

  return {
    ready,
    async list(tenant: Tenant, lang: Language) {
      await ready(tenant.companyId);
      const items = await present(db, lang, tenant.companyId, await repo.apps(db, tenant.companyId));
      return { items, total: items.length };
    },
    async get(tenant: Tenant, lang: Language, id: number) {
      await ready(tenant.companyId);
      return one(db, lang, tenant.companyId, id);
    },
    async create(tenant: Tenant, lang: Language, input: AppInput) {
      if (!input.name.trim()) throw invalid('name', 'reasons.required');
      return transaction(db, async (trx) => {
        await checkScope(trx, tenant.companyId, input);
        const at = nowIso();
        const id = await repo.insertApp(trx, {
          company_id: tenant.companyId,
          ...appColumns(input),
          kind: 'custom',
          builtin: 0,
          form_version: 1,
          process_version: 1,
          created_at: at,
          updated_at: at,
        });
        const by = tenant.adminId;
        await repo.insertVersion(trx, 'workflow_forms', tenant.companyId, {
          app_id: id,
          version: 1,
          body: JSON.stringify(defaultForm('custom')),
          created_by: by,
          created_at: at,
        });
        await repo.insertVersion(trx, 'workflow_processes', tenant.companyId, {
          app_id: id,
          version: 1,
          body: JSON.stringify(defaultProcess()),
          created_by: by,
          created_at: at,
        });
        await audit(trx, tenant, 'workflow', 'workflow.app.create', { id, name: input.name.trim() });
        return one(trx, lang, tenant.companyId, id);
      });
    },
    async update(tenant: Tenant, lang: Language, input: AppUpdate) {
      if (!input.name.trim()) throw invalid('name', 'reasons.required');
      return transaction(db, async (trx) => {
        const row = await repo.app(trx, tenant.companyId, input.id);
        if (!row) throw notFound();
        await checkScope(trx, tenant.companyId, input);
        await repo.updateApp(trx, tenant.companyId, input.id, { ...appColumns(input), updated_at: nowIso() });
        await audit(trx, tenant, 'workflow', 'workflow.app.update', { id: input.id, name: input.name.trim() });
        return one(trx, lang, tenant.companyId, input.id);
      });
    },
    async enable(tenant: Tenant, lang: Language, id: number, enabled: boolean) {
      return transaction(db, async (trx) => {
        const row = await repo.app(trx, tenant.companyId, id);
        if (!row) throw notFound();
        await repo.updateApp(trx, tenant.companyId, id, { enabled: enabled ? 1 : 0, updated_at: nowIso() });
        const name = appName(lang, row);
        if (enabled) await audit(trx, tenant, 'workflow', 'workflow.app.enable', { id, name });
        else await audit(trx, tenant, 'workflow', 'workflow.app.disable', { id, name });
        return one(trx, lang, tenant.companyId, id);
      });
    },
    /** A copy is a custom app of the same kind's form and process (a copied leave app still writes leave). */
    async copy(tenant: Tenant, lang: Language, id: number, name: string | undefined) {
      return transaction(db, async (trx) => {
        const row = await repo.app(trx, tenant.companyId, id);
        if (!row) throw notFound();
        const form = await repo.version(trx, 'workflow_forms', tenant.companyId, id, row.form_version);
        const proc = await repo.version(trx, 'workflow_processes', tenant.companyId, id, row.process_version);
        const at = nowIso();
        const newName = name?.trim() || `${appName(lang, row)} (2)`.slice(0, 40);
        const copy = await repo.insertApp(trx, {
          company_id: tenant.companyId,
          name: newName,
          icon: row.icon,
          sort: row.sort,
          enabled: row.enabled,
          kind: row.kind,
          builtin: 0,
          scope: row.scope,
          department_ids: row.department_ids,
          person_ids: row.person_ids,
          description: row.description,
          form_version: 1,
          process_version: 1,
          created_at: at,
          updated_at: at,
        });
        const by = tenant.adminId;
        await repo.insertVersion(trx, 'workflow_forms', tenant.companyId, { app_id: copy, version: 1, body: form!.body, created_by: by, created_at: at });
        await repo.insertVersion(trx, 'workflow_processes', tenant.companyId, { app_id: copy, version: 1, body: proc!.body, created_by: by, created_at: at });
        await audit(trx, tenant, 'workflow', 'workflow.app.copy', { id: copy, name: newName, from: appName(lang, row) });
        return one(trx, lang, tenant.companyId, copy);
      });
    },
    /** Built-in apps stay (disable them instead); an app with applications stays too (their records need it). */
    async remove(tenant: Tenant, lang: Language, id: number) {
      await transaction(db, async (trx) => {
        const row = await repo.app(trx, tenant.companyId, id);
        if (!row) throw notFound();
        if (row.builtin === 1) throw badInput('errors.wfBuiltinApp');
        if ((await repo.countApplications(trx, tenant.companyId, id)) > 0) throw badInput('errors.wfAppInUse');
        await repo.deleteApp(trx, tenant.companyId, id);
        await audit(trx, tenant, 'workflow', 'workflow.app.delete', { id, name: appName(lang, row) });
      });
    },

    form: async (tenant: Tenant, appId: number, v?: number): Promise<FormVersion> => {
      const r = await version<FormSchema>('workflow_forms', tenant, appId, v);
      return { app_id: r.app_id, version: r.version, schema: r.body, created_at: r.created_at };
    },
    process: async (tenant: Tenant, appId: number, v?: number): Promise<ProcessVersion> => {
      const r = await version<ProcessTree>('workflow_processes', tenant, appId, v);
      return { app_id: r.app_id, version: r.version, process: r.body, created_at: r.created_at };
    },
    /** A new form version (applications keep the version they were filled with); the process must still fit it. */
    async saveForm(tenant: Tenant, lang: Language, appId: number, schema: FormSchema): Promise<FormVersion> {
      return transaction(db, async (trx) => {
        const at = nowIso();
        if (!(await repo.lockApp(trx, tenant.companyId, appId, at))) throw notFound();
        const app = (await repo.app(trx, tenant.companyId, appId))!;
        const form = checkForm(schema, engineFields(app.kind), lang);
        const proc = await repo.version(trx, 'workflow_processes', tenant.companyId, appId, app.process_version);
        // A condition on a field the new form no longer has would route nothing: refuse the form, name the condition.
        checkProcess(parseJson<ProcessTree>(proc?.body, { nodes: [] }), form, lang);
        const version = app.form_version + 1;
        await repo.insertVersion(trx, 'workflow_forms', tenant.companyId, {
          app_id: appId,
          version,
          body: JSON.stringify(form),
          created_by: tenant.adminId,
          created_at: at,
        });
        await repo.updateApp(trx, tenant.companyId, appId, { form_version: version, updated_at: at });
        await audit(trx, tenant, 'workflow', 'workflow.form.save', { id: appId, name: appName(lang, app), version });
        return { app_id: appId, version, schema: form, created_at: at };
      });
    },
    async saveProcess(tenant: Tenant, lang: Language, appId: number, tree: ProcessTree): Promise<ProcessVersion> {
      return transaction(db, async (trx) => {
        const at = nowIso();
        if (!(await repo.lockApp(trx, tenant.companyId, appId, at))) throw notFound();
        const app = (await repo.app(trx, tenant.companyId, appId))!;
        const form = await repo.version(trx, 'workflow_forms', tenant.companyId, appId, app.form_version);
        const refs = checkProcess(tree, parseJson<FormSchema>(form?.body, { fields: [] }), lang);
        const people = await repo.persons(trx, tenant.companyId, refs.personIds);
        if (people.length !== refs.personIds.length) throw invalid('process', 'reasons.wfUnknownPerson');
        const deps = new Set((await repo.departments(trx, tenant.companyId)).map((d) => d.id));
        if (refs.departmentIds.some((id) => !deps.has(id))) throw invalid('process', 'reasons.wfUnknownDepartment');
        const version = app.process_version + 1;
        await repo.insertVersion(trx, 'workflow_processes', tenant.companyId, {
          app_id: appId,
          version,
          body: JSON.stringify(refs.tree),
          created_by: tenant.adminId,
          created_at: at,
        });
        await repo.updateApp(trx, tenant.companyId, appId, { process_version: version, updated_at: at });
        await audit(trx, tenant, 'workflow', 'workflow.process.save', { id: appId, name: appName(lang, app), version });
        return { app_id: appId, version, process: refs.tree, created_at: at };
      });
    },
  };
}
export type AppsService = ReturnType<typeof appsService>;
