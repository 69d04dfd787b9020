import { LEGACY_FIELDS, type LegacyField, type LegacyKind, type LegacyMapping } from '@faceadmin/shared';

const norm = (s: string) =>
  s
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[\s_.\-·:：()（）]+/g, '');

/**
 * The headers the old software writes for each field, in English, Simplified and Traditional Chinese and Japanese
 * (ZKBioTime, ZKTime, HikCentral exports; written from their field names, compared normalised).
 */
const ALIASES: Record<LegacyField, string[]> = {
  number: [
    'employee id',
    'emp id',
    'personnel id',
    'person id',
    'employee no',
    'emp no',
    'ac-no',
    'ac no',
    'user id',
    'userid',
    'pin',
    'badgenumber',
    'badge number',
    'no',
    '工号',
    '人员编号',
    '员工编号',
    '编号',
    '考勤号码',
    '工號',
    '人員編號',
    '員工編號',
    '編號',
    '考勤號碼',
    '社員番号',
    '従業員番号',
    '社員コード',
    '番号',
  ],
  name: ['name', 'full name', 'employee name', '姓名', '名称', '員工姓名', '员工姓名', '氏名', '名前', '社員名'],
  first_name: ['first name', 'firstname', 'given name', '名', '名字'],
  last_name: ['last name', 'lastname', 'surname', 'family name', '姓'],
  code: [
    'department code',
    'dept code',
    'department no',
    'dept no',
    'department number',
    'deptid',
    'dept id',
    '部门编号',
    '部门代码',
    '部门编码',
    '部門編號',
    '部門代碼',
    '部門代號',
    '部署コード',
    '部署番号',
  ],
  parent: [
    'parent department',
    'parent',
    'superior',
    'superior department',
    'parent dept',
    'supdeptid',
    'parent code',
    '上级部门',
    '上级',
    '上级部门编号',
    '上級部門',
    '上級',
    '上級部門編號',
    '上位部署',
    '親部署',
  ],
  department: ['department', 'dept', 'department name', 'dept name', '部门', '部门名称', '所属部门', '部門', '部門名稱', '所屬部門', '部署', '所属', '部署名'],
  card: ['card no', 'card number', 'card', 'cardno', 'rfid', '卡号', '卡號', 'カード番号', 'カードno'],
  hire_date: [
    'hire date',
    'hired',
    'date of joining',
    'join date',
    'entry date',
    'joined',
    '入职日期',
    '入职时间',
    '入職日期',
    '到職日期',
    '到職日',
    '入社日',
    '入社年月日',
  ],
  gender: ['gender', 'sex', '性别', '性別'],
  phone: [
    'mobile',
    'phone',
    'telephone',
    'mobile phone',
    'contact',
    '手机',
    '手机号',
    '电话',
    '联系电话',
    '手機',
    '電話',
    '聯絡電話',
    '携帯番号',
    '電話番号',
    '携帯',
  ],
  time: [
    'punch time',
    'check time',
    'checktime',
    'datetime',
    'date time',
    'timestamp',
    'attendance time',
    '打卡时间',
    '考勤时间',
    '签到时间',
    '打卡時間',
    '考勤時間',
    '打刻時刻',
    '打刻日時',
  ],
  date: ['date', 'punch date', '日期', '打卡日期', '考勤日期', '日付', '打刻日'],
  clock: ['time', '时间', '時間', '時刻'],
  terminal: [
    'device sn',
    'serial number',
    'sn',
    'terminal sn',
    'device',
    'device name',
    'terminal',
    'terminal alias',
    'area',
    '设备序列号',
    '设备名称',
    '设备',
    '终端',
    '設備序號',
    '設備名稱',
    '設備',
    '終端',
    '端末',
    '端末シリアル',
    '端末名',
  ],
  state: [
    'punch state',
    'state',
    'status',
    'check type',
    'checktype',
    'attendance state',
    'in/out',
    '考勤状态',
    '打卡状态',
    '状态',
    '签到类型',
    '考勤狀態',
    '打卡狀態',
    '狀態',
    '打刻区分',
    '状態',
    '区分',
  ],
};
const INDEX = new Map<string, LegacyField>(Object.entries(ALIASES).flatMap(([field, words]) => words.map((w) => [norm(w), field as LegacyField] as const)));

/** Each field of the kind to the first column whose header names it (null: none does). */
export function guessMapping(kind: LegacyKind, headers: readonly string[]): LegacyMapping {
  const fields: readonly LegacyField[] = LEGACY_FIELDS[kind];
  const out: LegacyMapping = Object.fromEntries(fields.map((f) => [f, null]));
  headers.forEach((h, i) => {
    const f = INDEX.get(norm(h));
    if (f && fields.includes(f) && out[f] === null) out[f] = i;
  });
  return out;
}

/** The fields a run cannot do without, in the order they are asked for; a missing one is named in the error. */
export function missingField(kind: LegacyKind, m: LegacyMapping): LegacyField | undefined {
  const has = (f: LegacyField) => m[f] !== undefined && m[f] !== null;
  if (kind === 'departments') return has('department') ? undefined : 'department';
  if (!has('number')) return 'number';
  if (kind === 'employees') return has('name') || has('first_name') || has('last_name') ? undefined : 'name';
  // a date column alone is read as the whole moment when its cells hold one (each row says when they do not)
  return has('time') || has('date') ? undefined : 'time';
}
