import { APPROVAL_STATUS, LIMITS, type ApplicationQuery, type ImportReport, type ImportRowError, type Language } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { t } from '../../i18n/i18n.ts';
import { badInput } from '../../lib/errors.ts';
import { nowIso, wallClockMs, zonedToUtcMs } from '../../lib/time.ts';
import { cellText, excel, pages, xlsxStream, type XlsxColumn } from '../../lib/xlsx.ts';
import { checkXlsx } from '../../lib/zip.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { writeApprovalAbsences } from '../attendance/approval-absences.ts';
import { localDate } from '../attendance/recompute.service.ts';
import { audit } from '../logs/logs.service.ts';
import type { ApplicationsService, Caller } from './applications.service.ts';
import { ensureBuiltins } from './apps.service.ts';
import { appName, formOf } from './workflow.presenter.ts';
import { workflowRepository as repo } from './workflow.repository.ts';
import { labelOf } from './process.ts';

/** The record sheet's columns: the Workflow and Leave form rows of spec §3. */
const COLUMNS = [
  'order_no',
  'created_at',
  'number',
  'name',
  'departments',
  'app',
  'status',
  'leave_type',
  'from',
  'to',
  'days',
  'reason',
  'finished_at',
] as const;
/** What an import needs of them (spec §5: past records). */
const IMPORT_COLUMNS = ['number', 'app', 'status', 'created_at', 'leave_type', 'from', 'to', 'reason', 'order_no'] as const;
type ImportColumn = (typeof IMPORT_COLUMNS)[number];
const REQUIRED: ImportColumn[] = ['number', 'app', 'status'];

const header = (lang: Language, c: string) => t(lang, `workflow.columns.${c}`);
const statusText = (lang: Language, s: number) =>
  t(lang, `workflow.status.${s === 1 ? 'approved' : s === -1 ? 'rejected' : s === -2 ? 'withdrawn' : 'pending'}`);
/** Formatters by zone: making one per cell costs a millisecond and memory ICU returns late (an export makes 80,000 cells). */
const formatters = new Map<string, Intl.DateTimeFormat>();
/** A local wall time 'YYYY-MM-DD HH:mm' in the company's zone. */
const wall = (iso: string | null, zone: string) => {
  if (!iso) return '';
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(Date.parse(iso))).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
};
const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '');

/** Records as a spreadsheet (streamed, 1,000 rows a batch), and past records read from one. */
export function workflowSheets(database: Database, applications: ApplicationsService) {
  const { db } = database;
  return {
    async export(tenant: Tenant, lang: Language, q: Partial<ApplicationQuery>) {
      const zone = tenant.timeZone ?? 'UTC';
      const caller: Caller = { kind: 'admin', tenant, lang };
      const columns: XlsxColumn[] = COLUMNS.map((c) => ({ key: c, header: header(lang, c), width: c === 'reason' ? 40 : 18 }));
      async function* batches() {
        for await (const rows of pages((offset, limit) => applications.rows(caller, zone, q, offset, limit))) {
          yield rows.map(({ row, values }) => ({
            order_no: row.order_no,
            created_at: wall(row.created_at, zone),
            number: row.applicant.number,
            name: row.applicant.name,
            departments: row.departments.map((d) => d.name).join(', '),
            app: row.app.name,
            status: statusText(lang, row.status),
            leave_type: row.leave_type ?? '',
            from: wall(row.period?.from ?? null, zone),
            to: row.kind === 'supplement' ? '' : wall(row.period?.to ?? null, zone),
            days: row.duration?.days ?? '',
            reason: typeof values.reason === 'string' ? values.reason : '',
            finished_at: wall(row.finished_at, zone),
          }));
        }
      }
      return xlsxStream(t(lang, 'workflow.sheet'), columns, batches());
    },

    async template(lang: Language) {
      const wb = new (await excel()).Workbook();
      const ws = wb.addWorksheet(t(lang, 'workflow.sheet'));
      ws.columns = IMPORT_COLUMNS.map((c) => ({ header: header(lang, c), key: c, width: 20 }));
      ws.addRow({
        number: '1001',
        app: t(lang, 'workflow.kinds.leave'),
        status: statusText(lang, 1),
        created_at: '2026-01-05 09:00',
        leave_type: t(lang, 'workflow.exampleLeaveType'),
        from: '2026-01-06 09:00',
        to: '2026-01-06 18:00',
        reason: t(lang, 'workflow.exampleReason'),
        order_no: '',
      });
      return Buffer.from(await wb.xlsx.writeBuffer());
    },

    /**
     * Past records (spec §5: xlsx only, at most 2 MB): each row names a person (number), an app (name), a final
     * status (approved or rejected) and, for leave, trips and supplementary punches, the period. Every row is
     * checked first; good rows are written in one transaction, and approved ones reach attendance like approvals.
     */
    async importXlsx(tenant: Tenant, lang: Language, buf: Buffer): Promise<ImportReport> {
      if (buf.length > LIMITS.importMaxBytes) throw badInput('errors.fileTooLarge', 'file', { mb: LIMITS.importMaxBytes / 1024 / 1024 });
      await checkXlsx(buf, 'file');
      const wb = new (await excel()).Workbook();
      try {
        await wb.xlsx.load(buf as unknown as ArrayBuffer);
      } catch {
        throw badInput('errors.xlsxCorrupt', 'file');
      }
      const ws = wb.worksheets[0];
      if (!ws) throw badInput('errors.xlsxEmpty', 'file');
      const names = new Map<string, ImportColumn>();
      for (const c of IMPORT_COLUMNS) for (const l of ['zh-CN', 'zh_tw', 'en-US', 'ja'] as const) names.set(norm(header(l, c)), c);
      const colOf = new Map<ImportColumn, number>();
      ws.getRow(1).eachCell((cell, col) => {
        const c = names.get(norm(cellText(cell.value, 'minute')));
        if (c && !colOf.has(c)) colOf.set(c, col);
      });
      const missing = REQUIRED.filter((c) => !colOf.has(c));
      if (missing.length) throw badInput('errors.xlsxColumns', 'file', { columns: missing.map((c) => header(lang, c)).join(', ') });
      if (ws.rowCount - 1 > LIMITS.importMaxRows) throw badInput('errors.xlsxRows', 'file', { max: LIMITS.importMaxRows });

      const companyId = tenant.companyId;
      const zone = tenant.timeZone ?? 'UTC';
      await transaction(db, (trx) => ensureBuiltins(trx, companyId));
      const apps = await repo.apps(db, companyId);
      const appByName = new Map<string, (typeof apps)[number]>();
      for (const a of apps) {
        appByName.set(norm(a.name), a);
        if (a.builtin) for (const l of ['zh-CN', 'zh_tw', 'en-US', 'ja'] as const) appByName.set(norm(appName(l, { name: '', kind: a.kind })), a);
      }
      const statusOf = new Map<string, number>();
      for (const l of ['zh-CN', 'zh_tw', 'en-US', 'ja'] as const) {
        statusOf.set(norm(statusText(l, 1)), 1);
        statusOf.set(norm(statusText(l, -1)), -1);
      }
      statusOf.set('1', 1);
      statusOf.set('-1', -1);
      const people = await repo.byNumber(db, companyId);

      const errors: ImportRowError[] = [];
      const err = (row: number, field: ImportColumn, reasonKey: string, params: Record<string, string | number> = {}) =>
        errors.push({ row, field: header(lang, field), reason: t(lang, reasonKey, params) });
      const when = (s: string) => {
        if (!s) return null;
        const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?$/.exec(s);
        if (!m) return NaN;
        const local = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')} ${(m[4] ?? '00').padStart(2, '0')}:${m[5] ?? '00'}`;
        // A real day and time only: 2026-02-31 or 24:00 is refused, not rolled over into the next month or day.
        if (Number.isNaN(wallClockMs(`${local}:00`))) return NaN;
        return zonedToUtcMs(local, zone);
      };
      type Good = {
        row: number;
        app: (typeof apps)[number];
        person: { id: number; name: string };
        status: number;
        created: number;
        from: number | null;
        to: number | null;
        leaveType: string | null;
        reason: string;
        orderNo: string;
      };
      const good: Good[] = [];
      const seenOrders = new Map<string, number>();
      let total = 0;
      for (let r = 2; r <= ws.rowCount; r++) {
        const row = ws.getRow(r);
        const get = (c: ImportColumn) => (colOf.has(c) ? cellText(row.getCell(colOf.get(c)!).value, 'minute') : '');
        const v = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, get(c)])) as Record<ImportColumn, string>;
        if (IMPORT_COLUMNS.every((c) => !v[c])) continue;
        total++;
        const before = errors.length;
        for (const c of REQUIRED) if (!v[c]) err(r, c, 'reasons.required');
        const person = v.number ? people.get(v.number.toLowerCase()) : undefined;
        if (v.number && !person) err(r, 'number', 'reasons.wfNoSuchPerson');
        const app = v.app ? appByName.get(norm(v.app)) : undefined;
        if (v.app && !app) err(r, 'app', 'reasons.wfNoSuchApp');
        const status = v.status ? statusOf.get(norm(v.status)) : undefined;
        if (v.status && status === undefined) err(r, 'status', 'reasons.wfImportStatus');
        const created = when(v.created_at) ?? Date.now();
        if (Number.isNaN(created)) err(r, 'created_at', 'reasons.calendarDate');
        const from = when(v.from);
        const to = when(v.to);
        if (Number.isNaN(from)) err(r, 'from', 'reasons.calendarDate');
        if (Number.isNaN(to)) err(r, 'to', 'reasons.calendarDate');
        const needsPeriod = app && (app.kind === 'leave' || app.kind === 'trip' || app.kind === 'overtime');
        if (needsPeriod && (from === null || to === null)) err(r, from === null ? 'from' : 'to', 'reasons.required');
        if (needsPeriod && from !== null && to !== null && !Number.isNaN(from) && !Number.isNaN(to) && to <= from) err(r, 'to', 'reasons.dateOrder');
        if (app?.kind === 'supplement' && from === null) err(r, 'from', 'reasons.required');
        let leaveType: string | null = null;
        if (app?.kind === 'leave') {
          const form = formOf((await repo.version(db, 'workflow_forms', companyId, app.id, app.form_version))?.body);
          const field = form.fields.find((f) => f.key === 'leave_type');
          const option = field?.options?.find(
            (o) => norm(o.value) === norm(v.leave_type) || Object.values(o.label).some((x) => typeof x === 'string' && norm(x) === norm(v.leave_type)),
          );
          if (!v.leave_type) err(r, 'leave_type', 'reasons.required');
          else if (!option) err(r, 'leave_type', 'reasons.wfNoSuchOption', { value: v.leave_type });
          else leaveType = option.value;
        }
        if (v.reason.length > 2000) err(r, 'reason', 'reasons.maxLength', { limit: 2000 });
        if (v.order_no) {
          if (seenOrders.has(v.order_no)) err(r, 'order_no', 'reasons.duplicateRow', { row: seenOrders.get(v.order_no)! });
          else if (await repo.orderNoTaken(db, companyId, v.order_no)) err(r, 'order_no', 'reasons.wfOrderTaken');
          seenOrders.set(v.order_no, r);
        }
        if (errors.length === before && person && app && status !== undefined)
          good.push({
            row: r,
            app,
            person,
            status,
            created,
            from: from ?? null,
            to: app.kind === 'supplement' ? (from ?? null) : (to ?? null),
            leaveType,
            reason: v.reason,
            orderNo: v.order_no,
          });
      }

      await transaction(db, async (trx) => {
        for (const g of good) {
          const at = new Date(g.created).toISOString();
          const values: Record<string, unknown> = { reason: g.reason };
          if (g.leaveType) values.leave_type = g.leaveType;
          if (g.from !== null && g.to !== null && g.app.kind !== 'supplement')
            values.period = { from: new Date(g.from).toISOString(), to: new Date(g.to).toISOString() };
          if (g.app.kind === 'supplement' && g.from !== null) values.punch_time = new Date(g.from).toISOString();
          const id = await repo.insertApplication(trx, {
            company_id: companyId,
            app_id: g.app.id,
            order_no: g.orderNo || `tmp-${Math.random().toString(36).slice(2)}`,
            person_id: g.person.id,
            form_version: g.app.form_version,
            process_version: g.app.process_version,
            form_values: JSON.stringify(values),
            status: g.status,
            source: 'import',
            plan: '[]',
            plan_index: 0,
            leave_type: g.leaveType,
            period_from: g.from === null ? null : new Date(g.from).toISOString(),
            period_to: g.to === null ? null : new Date(g.to).toISOString(),
            duration_days: null,
            duration_hours: null,
            created_by: tenant.adminId,
            created_at: at,
            updated_at: nowIso(),
            finished_at: at,
          });
          if (!g.orderNo) await repo.newOrderNo(trx, companyId, id, localDate(g.created, zone));
          await repo.insertStep(trx, {
            company_id: companyId,
            application_id: id,
            seq: 0,
            kind: 'end',
            state: 'imported',
            actor_kind: 'admin',
            actor_id: tenant.adminId,
            actor_name: tenant.adminName,
            created_at: nowIso(),
            decided_at: nowIso(),
          });
          // An approved past record reaches attendance as an approval does; a rejected one never does.
          if (g.status === APPROVAL_STATUS.approved && g.from !== null && g.to !== null) {
            const kind =
              g.app.kind === 'leave'
                ? 'leave'
                : g.app.kind === 'trip'
                  ? 'out'
                  : g.app.kind === 'supplement'
                    ? 'supplement'
                    : g.app.kind === 'overtime' // #17: read by rules counting overtime only when approved
                      ? 'overtime'
                      : null;
            if (kind) {
              const form = formOf((await repo.version(trx, 'workflow_forms', companyId, g.app.id, g.app.form_version))?.body);
              const option = form.fields.find((f) => f.key === 'leave_type')?.options?.find((o) => o.value === g.leaveType);
              const label = option ? labelOf(option.label, lang, option.value) : '';
              await writeApprovalAbsences(trx, companyId, zone, id, g.person.id, [
                {
                  kind,
                  from: g.from,
                  to: g.to,
                  reason: [label, g.reason].filter(Boolean).join(': ') || appName(lang, g.app),
                  leaveType: kind === 'leave' ? g.leaveType : null,
                },
              ]);
            }
          }
        }
        if (good.length) await audit(trx, tenant, 'workflow', 'workflow.import', { count: good.length });
      });
      return { total, created: good.length, updated: 0, failed: total - good.length, written: good.length > 0, errors };
    },
  };
}
export type WorkflowSheets = ReturnType<typeof workflowSheets>;
