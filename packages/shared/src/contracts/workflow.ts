import { Type, type Static } from 'typebox';
import { LIMITS, MOBILE_PATTERN } from '../limits.ts';
import { Count, Flag, Id, IdBody, Nullable, Page, PageQuery, Ref, StringEnum, XLSX_TYPE } from './common.ts';
import { binary, endpoint } from './endpoint.ts';
import { LeaveBalance } from './leave.ts';
import { ImportReport } from './persons.ts';
import { LongText } from './request.ts';

/**
 * Approval workflows (issue #11; spec §2 /workflow, §3 Workflow + Leave form, §4, §5, §6). The console's designers
 * and records work against the `workflowApi` entries (right `workflow` = 1, refused in LAN mode); employees use the
 * self-service entries of `selfApi` (their own person session, header X-Person-Token). docs/api-workflow.md.
 */

/** What an app does when it is finally approved (custom apps only record). */
export const WORKFLOW_KINDS = ['leave', 'trip', 'overtime', 'supplement', 'custom'] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];
/** The built-in kinds every company has (created with the company, or on first use). */
export const BUILTIN_KINDS = ['leave', 'trip', 'overtime', 'supplement'] as const;
/** Who may apply with an app. */
export const APPLY_SCOPES = ['everyone', 'departments', 'people'] as const;
export type ApplyScope = (typeof APPLY_SCOPES)[number];
/** The built-in leave types (the leave form's `leave_type` options; administrators may rename, add, remove). */
export const LEAVE_TYPES = ['annual', 'sick', 'personal', 'marriage', 'maternity', 'bereavement', 'compensatory'] as const;
/** The icons the console offers for an app (keys; the console maps them to pictures). */
export const WORKFLOW_ICONS = ['leave', 'trip', 'overtime', 'supplement', 'document', 'money', 'car', 'meal', 'gift', 'tool', 'other'] as const;

/**
 * spec §4: 0 pending, 1 approved, -1 rejected; -2 withdrawn by the applicant while pending, or cancelled by an
 * administrator after approval (what approval wrote into attendance is taken back out).
 */
export const APPROVAL_STATUS = { pending: 0, approved: 1, rejected: -1, withdrawn: -2 } as const;
export const APPROVAL_STATUSES = [0, 1, -1, -2] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const WORKFLOW_LIMITS = {
  nameMax: 40,
  fieldsMax: 50,
  optionsMax: 50,
  nodesMax: 100,
  branchesMax: 10,
  /** condition nodes inside branches inside condition nodes … */
  depthMax: 5,
  /** named approvers on one node */
  approversMax: 50,
  /** department head levels above the applicant's department (1 = its own head) */
  headLevelMax: 5,
  commentMax: 500,
  textValueMax: 2000,
  sortMax: 9999,
  /** a one-time sign-in link lives this long */
  linkHours: 72,
  /** one picture or attachment of a form */
  fileMaxBytes: 10 * 1024 * 1024,
} as const;

/** A picture's or attachment's stored name (what a picture or attachment field's value lists). */
export const WORKFLOW_FILE_PATTERN = '^[a-f0-9]{32}\\.[a-z0-9]{1,8}$';
/** An uploaded picture (re-encoded as JPEG) or attachment, ready to put in a field's value. */
export const WorkflowFile = Type.Object({ name: Type.String(), url: Type.String(), size: Type.Integer(), picture: Type.Boolean() });
export type WorkflowFile = Static<typeof WorkflowFile>;
export const WorkflowFileParams = Type.Object({ name: Type.String({ maxLength: 64, pattern: WORKFLOW_FILE_PATTERN }) });

// ---------------------------------------------------------------------------------------------------------------
// Form schema (versioned JSON)

/** A key of a field or an option: letters, digits and _ (starts with a letter). */
export const FIELD_KEY_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,31}$';
const FieldKey = Type.String({ pattern: FIELD_KEY_PATTERN, maxLength: 32 });
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'money',
  'select',
  'multiselect',
  'date',
  'datetime',
  'daterange',
  'picture',
  'attachment',
  'person',
  'department',
  'description',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A text in each language the console serves (at least one; the reader's language, else the first one set). */
export const LocalText = Type.Object({
  'zh-CN': Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  zh_tw: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  'en-US': Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  ja: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
});
export type LocalText = Static<typeof LocalText>;
/** A description field's text may be long and multi-line. */
export const LocalLongText = Type.Object({
  'zh-CN': Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
  zh_tw: Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
  'en-US': Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
  ja: Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
});

export const FieldOption = Type.Object({ value: FieldKey, label: LocalText });
export type FieldOption = Static<typeof FieldOption>;

export const FormField = Type.Object({
  key: FieldKey,
  type: Type.Enum([...FIELD_TYPES]),
  label: LocalText,
  placeholder: Type.Optional(LocalText),
  /** description fields: the text shown */
  text: Type.Optional(LocalLongText),
  required: Type.Boolean(),
  /** select and multiselect: at least one, values unique */
  options: Type.Optional(Type.Array(FieldOption, { maxItems: WORKFLOW_LIMITS.optionsMax })),
  /** daterange: the duration is counted in days or hours of the company's working time */
  unit: Type.Optional(Type.Enum(['day', 'hour'])),
  /**
   * An engine field of a built-in app (leave type, period, punch time): its key and type stay, the server sets this
   * flag (a client's value is ignored).
   */
  locked: Type.Optional(Type.Boolean()),
});
export type FormField = Static<typeof FormField>;
export const FormSchema = Type.Object({ fields: Type.Array(FormField, { maxItems: WORKFLOW_LIMITS.fieldsMax }) });
export type FormSchema = Static<typeof FormSchema>;

/**
 * A date range's value: ISO-8601 instants with their zone (the company's working time gives its duration). Their
 * meaning (real days and times, from before to) is checked against the form, so the error names the form's field.
 */
export const RangeValue = Type.Object({ from: Type.String({ maxLength: 40 }), to: Type.String({ maxLength: 40 }) });
export type RangeValue = Static<typeof RangeValue>;
/**
 * A field's value by type: text/textarea/date (YYYY-MM-DD)/datetime (ISO)/select: a string; number/money: a number;
 * multiselect: option values; daterange: {from, to}; picture/attachment: uploaded names; person/department: ids.
 */
export const FieldValue = Type.Union([
  LongText({ maxLength: WORKFLOW_LIMITS.textValueMax }),
  Type.Number({ minimum: -1e12, maximum: 1e12 }),
  /** multiselect option values, or the names of uploaded pictures and attachments */
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }),
  Type.Array(Id, { maxItems: 50 }),
  RangeValue,
  Type.Null(),
]);
export type FieldValue = Static<typeof FieldValue>;
export const FormValues = Type.Record(Type.String({ pattern: FIELD_KEY_PATTERN }), FieldValue);
export type FormValues = Static<typeof FormValues>;

// ---------------------------------------------------------------------------------------------------------------
// Process tree: start → approver / cc nodes → condition branches (priorities, one default) → end

/**
 * Who approves (or is copied):
 * - people: named people of the company;
 * - head: the applicant's department head(s) (the department's incharges) at `level` (1 = their own department's
 *   head, 2 = the head of the department above, …);
 * - admins: the company's administrators (they decide in the console).
 */
export const APPROVER_KINDS = ['people', 'head', 'admins'] as const;
export const ApproverChoice = Type.Object({
  kind: Type.Enum([...APPROVER_KINDS]),
  person_ids: Type.Optional(Type.Array(Id, { maxItems: WORKFLOW_LIMITS.approversMax, uniqueItems: true })),
  level: Type.Optional(Type.Integer({ minimum: 1, maximum: WORKFLOW_LIMITS.headLevelMax })),
});
export type ApproverChoice = Static<typeof ApproverChoice>;
/** Several approvers on one node: all must approve, any one may, or each in turn. */
export const APPROVE_MODES = ['all', 'any', 'sequential'] as const;
export type ApproveMode = (typeof APPROVE_MODES)[number];
/** When nobody is found (no head at that level): skip the node, or hand it to the administrators. */
export const EMPTY_RULES = ['skip', 'admin'] as const;

const NodeId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' });
const NodeName = Type.Optional(Type.String({ maxLength: WORKFLOW_LIMITS.nameMax }));

export const ApproverNode = Type.Object({
  id: NodeId,
  type: Type.Literal('approver'),
  name: NodeName,
  approver: ApproverChoice,
  mode: Type.Enum([...APPROVE_MODES]),
  empty: Type.Enum([...EMPTY_RULES]),
});
export type ApproverNode = Static<typeof ApproverNode>;
export const CcNode = Type.Object({ id: NodeId, type: Type.Literal('cc'), name: NodeName, approver: ApproverChoice });
export type CcNode = Static<typeof CcNode>;

/**
 * One test of a branch:
 * - field: a form field compared with `value` (number/money: a number; daterange: its duration in the field's unit;
 *   select: eq/ne an option value, in a list of option values; multiselect: in = shares one);
 * - department: the applicant belongs to one of `department_ids` (or a department below one).
 */
export const CONDITION_OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'in'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const Condition = Type.Object({
  kind: Type.Enum(['field', 'department']),
  field: Type.Optional(FieldKey),
  op: Type.Optional(Type.Enum([...CONDITION_OPS])),
  value: Type.Optional(Type.Union([Type.Number({ minimum: -1e12, maximum: 1e12 }), FieldKey, Type.Array(FieldKey, { maxItems: WORKFLOW_LIMITS.optionsMax })])),
  department_ids: Type.Optional(Type.Array(Id, { maxItems: 200, uniqueItems: true })),
});
export type Condition = Static<typeof Condition>;

/** A branch: tried in priority order (1 first); the default branch (no conditions) takes the rest. */
export interface ProcessBranch {
  id: string;
  name?: string | undefined;
  priority: number;
  default: boolean;
  /** all must hold */
  conditions: Condition[];
  nodes: ProcessNode[];
}
export interface ConditionNode {
  id: string;
  type: 'condition';
  name?: string | undefined;
  branches: ProcessBranch[];
}
export type ProcessNode = ApproverNode | CcNode | ConditionNode;

/** The schema checks one level; nested `nodes` are checked by the server with the same schemas (it is a tree). */
export const ProcessBranch = Type.Object({
  id: NodeId,
  name: NodeName,
  priority: Type.Integer({ minimum: 1, maximum: 99 }),
  default: Type.Boolean(),
  conditions: Type.Array(Condition, { maxItems: 20 }),
  nodes: Type.Unsafe<ProcessNode[]>(Type.Array(Type.Any(), { maxItems: WORKFLOW_LIMITS.nodesMax })),
});
export const ConditionNode = Type.Object({
  id: NodeId,
  type: Type.Literal('condition'),
  name: NodeName,
  branches: Type.Unsafe<ProcessBranch[]>(Type.Array(ProcessBranch, { maxItems: WORKFLOW_LIMITS.branchesMax })),
});
export const ProcessNode = Type.Unsafe<ProcessNode>(Type.Union([ApproverNode, CcNode, ConditionNode]));
/** The chain between the implicit start (the applicant) and end. */
export const ProcessTree = Type.Object({ nodes: Type.Array(ProcessNode, { maxItems: WORKFLOW_LIMITS.nodesMax }) });
export type ProcessTree = Static<typeof ProcessTree>;

// ---------------------------------------------------------------------------------------------------------------
// Apps, versions

const Name = Type.String({ minLength: 1, maxLength: WORKFLOW_LIMITS.nameMax });
export const AppInput = Type.Object({
  /** spec §5: name and sort required */
  name: Name,
  icon: Type.Enum([...WORKFLOW_ICONS]),
  sort: Type.Integer({ minimum: 0, maximum: WORKFLOW_LIMITS.sortMax }),
  enabled: Type.Boolean(),
  scope: Type.Enum([...APPLY_SCOPES]),
  department_ids: Type.Array(Id, { maxItems: 2_000, uniqueItems: true }),
  person_ids: Type.Array(Id, { maxItems: 20_000, uniqueItems: true }),
  description: Type.Optional(LongText({ maxLength: LIMITS.longTextMax })),
});
export type AppInput = Static<typeof AppInput>;
export const AppUpdate = Type.Object({ id: Id, ...AppInput.properties });
export type AppUpdate = Static<typeof AppUpdate>;
export const AppCopy = Type.Object({ id: Id, name: Type.Optional(Name) });
export const AppEnable = Type.Object({ id: Id, enabled: Type.Boolean() });

export const WorkflowApp = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  icon: Type.String(),
  sort: Type.Integer(),
  enabled: Type.Boolean(),
  kind: StringEnum(WORKFLOW_KINDS),
  /** a built-in app (leave, trip, overtime, supplement): not deleted, its engine fields locked */
  builtin: Type.Boolean(),
  scope: StringEnum(APPLY_SCOPES),
  departments: Type.Array(Ref),
  persons: Type.Array(Ref),
  description: Type.String(),
  form_version: Type.Integer(),
  process_version: Type.Integer(),
  /** applications waiting for a decision */
  pending: Type.Integer(),
  updated_at: Type.String(),
});
export type WorkflowApp = Static<typeof WorkflowApp>;
export const AppList = Type.Object({ items: Type.Array(WorkflowApp), total: Type.Integer() });

export const FormVersion = Type.Object({
  app_id: Type.Integer(),
  version: Type.Integer(),
  schema: FormSchema,
  created_at: Type.String(),
});
export type FormVersion = Static<typeof FormVersion>;
export const FormSave = Type.Object({ app_id: Id, schema: FormSchema });
export type FormSave = Static<typeof FormSave>;
export const ProcessVersion = Type.Object({
  app_id: Type.Integer(),
  version: Type.Integer(),
  process: ProcessTree,
  created_at: Type.String(),
});
export type ProcessVersion = Static<typeof ProcessVersion>;
export const ProcessSave = Type.Object({ app_id: Id, process: ProcessTree });
export type ProcessSave = Static<typeof ProcessSave>;
export const VersionQuery = Type.Object({ id: Id, version: Type.Optional(Type.Integer({ minimum: 1 })) });

// ---------------------------------------------------------------------------------------------------------------
// Applications, steps, timeline

export const DECISIONS = ['approve', 'reject'] as const;
/** A timeline entry's outcome. */
export const STEP_STATES = ['submitted', 'pending', 'approved', 'rejected', 'skipped', 'cc', 'withdrawn', 'cancelled', 'imported'] as const;
export type StepState = (typeof STEP_STATES)[number];
export const ACTOR_KINDS = ['person', 'admin', 'admins', 'system'] as const;

export const Actor = Type.Object({ kind: StringEnum(ACTOR_KINDS), id: Nullable(Type.Integer()), name: Type.String() });
export type Actor = Static<typeof Actor>;
/** One line of the timeline: a step (an approver or cc node, or the start/end) and who did what, when. */
export const TimelineEntry = Type.Object({
  step_id: Nullable(Type.Integer()),
  node_id: Nullable(Type.String()),
  node_name: Type.String(),
  state: StringEnum(STEP_STATES),
  mode: Nullable(StringEnum(APPROVE_MODES)),
  /** each approver (or cc) of the step with their own decision */
  actors: Type.Array(
    Type.Object({
      ...Actor.properties,
      state: StringEnum(STEP_STATES),
      comment: Type.String(),
      decided_at: Nullable(Type.String()),
    }),
  ),
  comment: Type.String(),
  at: Type.String(),
});
export type TimelineEntry = Static<typeof TimelineEntry>;

/** The Workflow row of spec §3: order number, creation time, applicant, status, app name. */
export const ApplicationRow = Type.Object({
  id: Type.Integer(),
  order_no: Type.String(),
  created_at: Type.String(),
  app: Ref,
  kind: StringEnum(WORKFLOW_KINDS),
  applicant: Type.Object({ id: Type.Integer(), name: Type.String(), number: Type.String() }),
  departments: Type.Array(Ref),
  status: Type.Integer(),
  /** the leave form of spec §3: type and period, when the app has them */
  leave_type: Nullable(Type.String()),
  period: Nullable(RangeValue),
  /** the period's duration in the company's working time */
  duration: Nullable(Type.Object({ days: Type.Number(), hours: Type.Number() })),
  /** the step waiting for a decision (null once finished) */
  current: Nullable(Type.Object({ step_id: Type.Integer(), node_name: Type.String(), approvers: Type.Array(Actor) })),
  finished_at: Nullable(Type.String()),
  /** applied by an administrator on the person's behalf, or imported */
  source: StringEnum(['self', 'admin', 'import'] as const),
});
export type ApplicationRow = Static<typeof ApplicationRow>;
export const ApplicationDetail = Type.Object({
  ...ApplicationRow.properties,
  form_version: Type.Integer(),
  form: FormSchema,
  values: FormValues,
  timeline: Type.Array(TimelineEntry),
  /** what approval wrote into attendance (absence ids), while approved */
  absences: Type.Array(Type.Object({ id: Type.Integer(), kind: Type.String(), from: Type.String(), to: Type.String() })),
  /** the caller may decide the current step now (self-service: their own open task; console: any pending step) */
  can_decide: Type.Boolean(),
  can_withdraw: Type.Boolean(),
  /** a leave: the applicant's balance of its type and year (null when the type keeps none) */
  leave_balance: Type.Optional(Nullable(LeaveBalance)),
});
export type ApplicationDetail = Static<typeof ApplicationDetail>;

const DateText = Type.String({ format: 'date' });
const ApplicationFilters = {
  app_id: Type.Optional(Id),
  status: Type.Optional(Type.Integer({ minimum: -2, maximum: 1 })),
  /** the applicant's name, number or phone, or the order number */
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Id),
  /** created on these days (the company's zone) */
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
};
export const ApplicationQuery = Type.Object({ ...PageQuery, ...ApplicationFilters });
export type ApplicationQuery = Static<typeof ApplicationQuery>;
export const ApplicationExport = Type.Object(ApplicationFilters);
export type ApplicationExport = Static<typeof ApplicationExport>;
export const ApplicationPage = Page(ApplicationRow);

/** An administrator applies on a person's behalf. */
export const ApplyForBody = Type.Object({ app_id: Id, person_id: Id, values: FormValues });
export type ApplyForBody = Static<typeof ApplyForBody>;
export const ApplyBody = Type.Object({ app_id: Id, values: FormValues });
export type ApplyBody = Static<typeof ApplyBody>;
/** A decision on the step the caller saw (a stale step is refused: someone else decided first). */
export const DecideBody = Type.Object({
  id: Id,
  step_id: Id,
  decision: Type.Enum([...DECISIONS]),
  /** required when rejecting */
  comment: Type.String({ maxLength: WORKFLOW_LIMITS.commentMax }),
});
export type DecideBody = Static<typeof DecideBody>;
export const WithdrawBody = Type.Object({ id: Id, reason: Type.Optional(Type.String({ maxLength: WORKFLOW_LIMITS.commentMax })) });
export type WithdrawBody = Static<typeof WithdrawBody>;

/** The duration of a period in a person's working time (the form shows it as the range is picked). */
export const DurationQuery = Type.Object({
  person_id: Type.Optional(Id),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
});
export type DurationQuery = Static<typeof DurationQuery>;
export const Duration = Type.Object({ days: Type.Number(), hours: Type.Number() });
export type Duration = Static<typeof Duration>;

/** A one-time sign-in link for a person (sent by the administrator however they like). */
export const LinkBody = Type.Object({ person_id: Id });
export const SignInLink = Type.Object({
  /** the secret; shown once */
  token: Type.String(),
  /** the self-service page's path with the token (the console prefixes its origin) */
  path: Type.String(),
  expires_at: Type.String(),
});

/**
 * The people and departments a designer (named approvers, conditions, who may apply) or a form (person and department
 * fields) picks from: for administrators with the workflow right only, and for persons on the self-service page.
 */
export const PickQuery = Type.Object({
  ...PageQuery,
  keyword: Type.Optional(Type.String({ maxLength: LIMITS.textMax })),
  department_id: Type.Optional(Id),
});
export type PickQuery = Static<typeof PickQuery>;
export const PickPerson = Type.Object({ id: Type.Integer(), name: Type.String(), number: Type.String(), departments: Type.Array(Ref) });
export type PickPerson = Static<typeof PickPerson>;
export const PickDepartment = Type.Object({ id: Type.Integer(), name: Type.String(), parent_id: Type.Integer() });
export const PickDepartments = Type.Object({ items: Type.Array(PickDepartment) });

export const workflowApi = {
  apps: endpoint({ method: 'GET', path: '/workflow/app/list', response: AppList }),
  app: endpoint({ method: 'GET', path: '/workflow/app/info', query: IdBody, response: WorkflowApp }),
  createApp: endpoint({ method: 'POST', path: '/workflow/app/create', body: AppInput, response: WorkflowApp }),
  updateApp: endpoint({ method: 'POST', path: '/workflow/app/update', body: AppUpdate, response: WorkflowApp }),
  enableApp: endpoint({ method: 'POST', path: '/workflow/app/enable', body: AppEnable, response: WorkflowApp }),
  copyApp: endpoint({ method: 'POST', path: '/workflow/app/copy', body: AppCopy, response: WorkflowApp }),
  deleteApp: endpoint({ method: 'POST', path: '/workflow/app/delete', body: IdBody, response: Type.Null() }),
  /** the newest form (or `version`) of app `id` */
  form: endpoint({ method: 'GET', path: '/workflow/form/info', query: VersionQuery, response: FormVersion }),
  saveForm: endpoint({ method: 'POST', path: '/workflow/form/save', body: FormSave, response: FormVersion }),
  process: endpoint({ method: 'GET', path: '/workflow/process/info', query: VersionQuery, response: ProcessVersion }),
  saveProcess: endpoint({ method: 'POST', path: '/workflow/process/save', body: ProcessSave, response: ProcessVersion }),
  applications: endpoint({ method: 'GET', path: '/workflow/approval/list', query: ApplicationQuery, response: ApplicationPage }),
  application: endpoint({ method: 'GET', path: '/workflow/approval/info', query: IdBody, response: ApplicationDetail }),
  applyFor: endpoint({ method: 'POST', path: '/workflow/approval/create', body: ApplyForBody, response: ApplicationDetail }),
  decide: endpoint({ method: 'POST', path: '/workflow/approval/decide', body: DecideBody, response: ApplicationDetail }),
  /** pending: withdrawn; approved: cancelled (attendance follows) */
  withdraw: endpoint({ method: 'POST', path: '/workflow/approval/withdraw', body: WithdrawBody, response: ApplicationDetail }),
  export: endpoint({ method: 'POST', path: '/workflow/approval/export', body: Type.Optional(ApplicationExport), response: binary(XLSX_TYPE) }),
  template: endpoint({ method: 'GET', path: '/workflow/approval/template', response: binary(XLSX_TYPE) }),
  /** spec §5: xlsx only, at most 2 MB (form field "file") */
  import: endpoint({ method: 'POST', path: '/workflow/approval/import', multipart: true, response: ImportReport }),
  duration: endpoint({ method: 'GET', path: '/workflow/duration', query: DurationQuery, response: Duration }),
  link: endpoint({ method: 'POST', path: '/workflow/link', body: LinkBody, response: SignInLink }),
  /** A picture (form field kind=picture: JPEG or PNG, re-encoded) or an attachment (kind=attachment), field "file"; at most 10 MB. */
  upload: endpoint({ method: 'POST', path: '/workflow/upload', multipart: true, response: WorkflowFile }),
  file: endpoint({ method: 'GET', path: '/workflow/file/:name', params: WorkflowFileParams, response: binary('application/octet-stream') }),
  /** working people (by name, number or phone; in a department or below it) */
  people: endpoint({ method: 'GET', path: '/workflow/people', query: PickQuery, response: Page(PickPerson) }),
  /** every department, flat (parent_id 0: top level) */
  departments: endpoint({ method: 'GET', path: '/workflow/departments', response: PickDepartments }),
};

// ---------------------------------------------------------------------------------------------------------------
// Self-service (employees): a person session of its own, sent as X-Person-Token

export const SelfSmsBody = Type.Object({
  phone: Type.String({ pattern: MOBILE_PATTERN, maxLength: 16 }),
  icode: Type.String({ minLength: 1, maxLength: 10 }),
  captcha_id: Type.String({ minLength: 1, maxLength: 64 }),
});
export type SelfSmsBody = Static<typeof SelfSmsBody>;
export const SelfLoginBody = Type.Object({
  phone: Type.String({ pattern: MOBILE_PATTERN, maxLength: 16 }),
  code: Type.String({ minLength: 1, maxLength: 10 }),
  /** when the phone belongs to people in several companies: which one (else the first, and `companies` lists the rest) */
  company_id: Type.Optional(Id),
});
export type SelfLoginBody = Static<typeof SelfLoginBody>;
export const SelfLinkBody = Type.Object({ token: Type.String({ minLength: 10, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) });
export const SelfPerson = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  number: Type.String(),
  company: Ref,
  /** the company's IANA time zone: the self-service page takes and shows times in it, whatever the phone's */
  time_zone: Type.String(),
  departments: Type.Array(Ref),
  /** other companies where this phone belongs to someone (sign in again with company_id) */
  companies: Type.Array(Ref),
  /** tasks waiting for this person's decision */
  pending_tasks: Type.Integer(),
  unread: Type.Integer(),
});
export type SelfPerson = Static<typeof SelfPerson>;
export const SelfSession = Type.Object({ token: Type.String(), person: SelfPerson });
export type SelfSession = Static<typeof SelfSession>;
export const SelfApp = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  icon: Type.String(),
  kind: StringEnum(WORKFLOW_KINDS),
  description: Type.String(),
  form_version: Type.Integer(),
  form: FormSchema,
});
export type SelfApp = Static<typeof SelfApp>;
export const SelfAppList = Type.Object({ items: Type.Array(SelfApp) });
export const SelfApplicationQuery = Type.Object({ ...PageQuery, status: Type.Optional(Type.Integer({ minimum: -2, maximum: 1 })) });
export const TaskQuery = Type.Object({ ...PageQuery, done: Type.Optional(Flag) });
/** An application with the caller's own task on it. */
export const TaskRow = Type.Object({
  ...ApplicationRow.properties,
  task: Type.Object({ step_id: Type.Integer(), state: StringEnum(STEP_STATES), open: Type.Boolean(), decided_at: Nullable(Type.String()) }),
});
export type TaskRow = Static<typeof TaskRow>;
export const SelfMessage = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  title: Type.String(),
  content: Type.String(),
  application_id: Nullable(Type.Integer()),
  read: Type.Boolean(),
  created_at: Type.String(),
});
export type SelfMessage = Static<typeof SelfMessage>;
export const SelfReadBody = Type.Object({ ids: Type.Optional(Type.Array(Id, { maxItems: 1000 })), all: Type.Optional(Type.Boolean()) });
export const SelfDurationQuery = Type.Object({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) });

export const selfApi = {
  sendCode: endpoint({ method: 'POST', path: '/self/sendcode', body: SelfSmsBody, response: Type.Object({ cooldown: Type.Integer() }) }),
  login: endpoint({ method: 'POST', path: '/self/login', body: SelfLoginBody, response: SelfSession }),
  linkLogin: endpoint({ method: 'POST', path: '/self/link', body: SelfLinkBody, response: SelfSession }),
  /** An administrator linked to a person (spec §7 bindAdmin) opens self-service as that person, without SMS. */
  fromAdmin: endpoint({ method: 'POST', path: '/self/fromAdmin', response: SelfSession }),
  info: endpoint({ method: 'GET', path: '/self/info', response: SelfPerson }),
  logout: endpoint({ method: 'POST', path: '/self/logout', response: Type.Null() }),
  apps: endpoint({ method: 'GET', path: '/self/apps', response: SelfAppList }),
  duration: endpoint({ method: 'GET', path: '/self/duration', query: SelfDurationQuery, response: Duration }),
  apply: endpoint({ method: 'POST', path: '/self/apply', body: ApplyBody, response: ApplicationDetail }),
  applications: endpoint({ method: 'GET', path: '/self/applications', query: SelfApplicationQuery, response: ApplicationPage }),
  application: endpoint({ method: 'GET', path: '/self/application', query: IdBody, response: ApplicationDetail }),
  withdraw: endpoint({ method: 'POST', path: '/self/withdraw', body: WithdrawBody, response: ApplicationDetail }),
  tasks: endpoint({ method: 'GET', path: '/self/tasks', query: TaskQuery, response: Page(TaskRow) }),
  decide: endpoint({ method: 'POST', path: '/self/decide', body: DecideBody, response: ApplicationDetail }),
  inbox: endpoint({ method: 'GET', path: '/self/inbox', query: Type.Object({ ...PageQuery, unread: Type.Optional(Flag) }), response: Page(SelfMessage) }),
  read: endpoint({ method: 'POST', path: '/self/inbox/read', body: SelfReadBody, response: Count }),
  upload: endpoint({ method: 'POST', path: '/self/upload', multipart: true, response: WorkflowFile }),
  file: endpoint({ method: 'GET', path: '/self/file/:name', params: WorkflowFileParams, response: binary('application/octet-stream') }),
  people: endpoint({ method: 'GET', path: '/self/people', query: PickQuery, response: Page(PickPerson) }),
  departments: endpoint({ method: 'GET', path: '/self/departments', response: PickDepartments }),
};
