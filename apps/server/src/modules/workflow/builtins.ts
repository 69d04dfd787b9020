import { LEAVE_TYPES, type FormField, type FormSchema, type LocalText, type ProcessTree, type WorkflowKind } from '@faceadmin/shared';

/**
 * The built-in apps every company has (issue #11): leave, business trip / out of office, overtime and
 * supplementary punch. Their forms start with the fields attendance reads (the engine fields, locked: key and type
 * stay) and a reason; administrators may add fields, rename labels and change the leave types.
 */
const L = (zhCN: string, zhTW: string, en: string, ja: string): LocalText => ({ 'zh-CN': zhCN, zh_tw: zhTW, 'en-US': en, ja });

const LEAVE_LABELS: Record<(typeof LEAVE_TYPES)[number], LocalText> = {
  annual: L('年假', '年假', 'Annual leave', '年次有給休暇'),
  sick: L('病假', '病假', 'Sick leave', '病気休暇'),
  personal: L('事假', '事假', 'Personal leave', '私用休暇'),
  marriage: L('婚假', '婚假', 'Marriage leave', '結婚休暇'),
  maternity: L('产假', '產假', 'Maternity leave', '産前産後休暇'),
  bereavement: L('丧假', '喪假', 'Bereavement leave', '忌引休暇'),
  compensatory: L('调休', '補休', 'Compensatory leave', '代休'),
};

const reason: FormField = {
  key: 'reason',
  type: 'textarea',
  label: L('事由', '事由', 'Reason', '理由'),
  placeholder: L('请输入事由', '請輸入事由', 'Enter the reason', '理由を入力してください'),
  required: true,
};
const period = (unit: 'day' | 'hour'): FormField => ({
  key: 'period',
  type: 'daterange',
  label: L('起止时间', '起訖時間', 'Period', '期間'),
  required: true,
  unit,
  locked: true,
});

const FORMS: Record<Exclude<WorkflowKind, 'custom'>, FormSchema> = {
  leave: {
    fields: [
      {
        key: 'leave_type',
        type: 'select',
        label: L('请假类型', '請假類型', 'Leave type', '休暇の種類'),
        required: true,
        locked: true,
        options: LEAVE_TYPES.map((value) => ({ value, label: LEAVE_LABELS[value] })),
      },
      period('day'),
      reason,
      { key: 'attachments', type: 'picture', label: L('图片', '圖片', 'Pictures', '画像'), required: false },
    ],
  },
  trip: {
    fields: [
      {
        key: 'trip_type',
        type: 'select',
        label: L('类型', '類型', 'Type', '種類'),
        required: true,
        options: [
          { value: 'trip', label: L('出差', '出差', 'Business trip', '出張') },
          { value: 'out', label: L('外出', '外出', 'Out of office', '外出') },
        ],
      },
      period('day'),
      { key: 'destination', type: 'text', label: L('目的地', '目的地', 'Destination', '行き先'), required: false },
      reason,
    ],
  },
  overtime: { fields: [period('hour'), reason] },
  supplement: {
    fields: [{ key: 'punch_time', type: 'datetime', label: L('补卡时间', '補卡時間', 'Punch time', '打刻時刻'), required: true, locked: true }, reason],
  },
};

/** The engine fields of a kind: saved forms must keep them (key and type). */
export function engineFields(kind: string): Pick<FormField, 'key' | 'type'>[] {
  if (kind === 'leave')
    return [
      { key: 'leave_type', type: 'select' },
      { key: 'period', type: 'daterange' },
    ];
  if (kind === 'trip' || kind === 'overtime') return [{ key: 'period', type: 'daterange' }];
  if (kind === 'supplement') return [{ key: 'punch_time', type: 'datetime' }];
  return [];
}

/** The first form of a built-in app (or of a new custom app: one reason field). */
export function defaultForm(kind: WorkflowKind): FormSchema {
  return kind === 'custom' ? { fields: [reason] } : structuredClone(FORMS[kind]);
}

/** The first process: the applicant's department head; administrators when there is none. */
export function defaultProcess(): ProcessTree {
  return { nodes: [{ id: 'head', type: 'approver', approver: { kind: 'head', level: 1 }, mode: 'any', empty: 'admin' }] };
}

export const BUILTIN_ICONS: Record<Exclude<WorkflowKind, 'custom'>, string> = { leave: 'leave', trip: 'trip', overtime: 'overtime', supplement: 'supplement' };
