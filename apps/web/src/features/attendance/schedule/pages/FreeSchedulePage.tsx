import { useEffect, useMemo, useRef, useState, type CSSProperties, type MouseEvent } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import { Alert, App, Button, Card, DatePicker, Empty, Form, Modal, Pagination, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { AUTO_SHIFT_KEY, CODES, SCHEDULE_LIMITS, type ScheduleGrid } from '@faceadmin/shared';
import { ApiError } from '../../../../lib/request.ts';
import { useRightLevel } from '../../../../lib/session.ts';
import { ErrorState } from '../../../../ui/ErrorState.tsx';
import { DepartmentSelect } from '../../../persons/components/DepartmentSelect.tsx';
import { useSaveSchedule, useScheduleGrid, useShiftRules } from '../api.ts';
import {
  applyCycle,
  cellKey,
  draftBody,
  draftSize,
  emptyDraft,
  isDirty,
  isAdditive,
  isTouchScreen,
  isWeekend,
  rectangle,
  selectionHintKey,
  selectionPeople,
  setCells,
  shiftColour,
  shownCell,
  type Draft,
  type ShownCell,
} from '../logic.ts';

const PAGE_SIZE = 50;
const CELL_W = 38;
const NAME_W = 150;
const REST = '#bfbfbf';
/** a day that picks its shift by the first punch (#17 automatic shift matching) */
const AUTO_COLOUR = '#722ed1';

/** What fits in a cell: a Latin name's initial (D, N), two characters of a Chinese or Japanese one (早班). */
const shortLabel = (name: string) => [...name].slice(0, /^[\x20-\x7e]/.test(name) ? 1 : 2).join('');

/** The colours of a cell: a shift's colour (lighter from the running cycle), grey for rest, none when nothing applies. */
function cellStyle(cell: ShownCell, colourOf: Map<string, string>, selected: boolean): CSSProperties {
  const base = cell.shift_key ? (colourOf.get(cell.shift_key) ?? REST) : cell.source === 'none' ? 'transparent' : REST;
  const fromCycle = cell.source !== 'grid';
  return {
    width: CELL_W - 4,
    height: 26,
    lineHeight: '24px',
    margin: 2,
    borderRadius: 4,
    fontSize: 12,
    textAlign: 'center',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    cursor: 'pointer',
    userSelect: 'none',
    background: base === 'transparent' ? base : fromCycle ? `${base}40` : base,
    color: fromCycle || !cell.shift_key ? '#262626' : '#fff',
    border: cell.edited ? '1px dashed #262626' : '1px solid transparent',
    boxShadow: selected ? '0 0 0 2px #1677ff' : undefined,
  };
}

/** /attendance/freeSchedule (spec §2): a shift-mode rule's people × a month's days, edited and saved with the schedule hash (spec §4). */
export default function FreeSchedulePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [params] = useSearchParams();
  const rules = useShiftRules();
  const [ruleChoice, setRuleChoice] = useState<number | undefined>(Number(params.get('rule_id')) || undefined);
  const [month, setMonth] = useState(() => params.get('month') ?? dayjs().format('YYYY-MM'));
  const [page, setPage] = useState(1);
  const [departmentId, setDepartmentId] = useState<number | undefined>();
  // The department picker reads the people module's tree: offered to those who may see it.
  const canPickDepartment = useRightLevel('person').canView;
  const ruleId = ruleChoice ?? rules.data?.[0]?.id;
  // The draft survives paging and the department filter: the hash covers the whole rule's month.
  const grid = useScheduleGrid(ruleId ? { rule_id: ruleId, month, page, pageSize: PAGE_SIZE, ...(departmentId ? { department_id: departmentId } : {}) } : null);
  const data: ScheduleGrid | undefined = grid.data && grid.data.rule.id === ruleId && grid.data.month === month ? grid.data : undefined;
  const save = useSaveSchedule();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [conflict, setConflict] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const dirty = isDirty(draft);
  // The client hash: what the grid said when the first change of this draft was made. Paging or filtering later
  // fetches the current hash, which must not make someone else's save since then look like ours.
  const [baseHash, setBaseHash] = useState<string | null>(null);
  const edit = (change: (d: Draft) => Draft) => {
    if (!dirty && data) setBaseHash(data.hash);
    setDraft(change);
  };

  // Unsaved changes are warned about on leaving: another page of the console, or closing / reloading the tab.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('schedule.leaveTitle'),
      content: t('schedule.leaveContent'),
      okText: t('schedule.leave'),
      cancelText: t('schedule.stay'),
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const reset = () => {
    setDraft(emptyDraft());
    setBaseHash(null);
    setSelected(new Set());
    setConflict(null);
  };
  /** Changing the rule or the month drops the draft: asked first when there is one. */
  const switchTo = (change: () => void) => {
    if (!dirty) {
      reset();
      change();
      return;
    }
    modal.confirm({
      title: t('schedule.discardConfirm'),
      okText: t('schedule.discard'),
      cancelText: t('common.actions.cancel'),
      onOk: () => {
        reset();
        change();
      },
    });
  };

  const days = data?.days ?? [];
  const people = useMemo(() => data?.items ?? [], [data]);
  const personIds = useMemo(() => people.map((p) => p.person_id), [people]);
  const colourOf = useMemo(
    () => new Map([...(data?.shifts ?? []).map((s, i): [string, string] => [s.key, shiftColour(i)]), [AUTO_SHIFT_KEY, AUTO_COLOUR]]),
    [data?.shifts],
  );
  const shiftName = (k: string) => (k === AUTO_SHIFT_KEY ? t('schedule.auto') : k ? (data?.shifts.find((s) => s.key === k)?.name ?? '?') : t('schedule.rest'));
  const cellLabel = (k: string) => (k === AUTO_SHIFT_KEY ? t('schedule.autoShort') : shortLabel(shiftName(k)));

  // Selecting: press and drag a rectangle; Ctrl/Cmd adds to what is selected; Shift extends from the last press.
  // On a touch screen (no Ctrl, and a drag scrolls) a tap adds a day to the selection or takes it out.
  const [touch] = useState(isTouchScreen);
  const drag = useRef<{ anchor: { person: number; day: number }; base: Set<string> } | null>(null);
  const lastAnchor = useRef<{ person: number; day: number } | null>(null);
  useEffect(() => {
    const up = () => {
      drag.current = null;
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, []);
  const press = (e: MouseEvent, person: number, day: number) => {
    e.preventDefault();
    const additive = isAdditive(e, touch);
    const anchor = e.shiftKey && lastAnchor.current ? lastAnchor.current : { person, day };
    const base = additive ? new Set(selected) : new Set<string>();
    drag.current = { anchor, base };
    if (!e.shiftKey) lastAnchor.current = anchor;
    const k = cellKey(personIds[person]!, days[day]!);
    if (additive && selected.has(k) && !e.shiftKey) {
      base.delete(k);
      setSelected(new Set(base));
      return;
    }
    setSelected(new Set([...base, ...rectangle(personIds, days, anchor, { person, day })]));
  };
  const enter = (person: number, day: number) => {
    const d = drag.current;
    if (d) setSelected(new Set([...d.base, ...rectangle(personIds, days, d.anchor, { person, day })]));
  };
  const selectRow = (e: MouseEvent, person: number) => {
    const row = rectangle(personIds, days, { person, day: 0 }, { person, day: days.length - 1 });
    setSelected((s) => new Set([...(e.ctrlKey || e.metaKey ? s : []), ...row]));
  };
  const selectColumn = (e: MouseEvent, day: number) => {
    const col = rectangle(personIds, days, { person: 0, day }, { person: personIds.length - 1, day });
    setSelected((s) => new Set([...(e.ctrlKey || e.metaKey ? s : []), ...col]));
  };

  const assign = (value: string | null) => {
    if (!selected.size) {
      void message.info(t('schedule.selectFirst'));
      return;
    }
    edit((d) => setCells(d, selected, value));
  };

  const onSave = async () => {
    if (!data || !ruleId) return;
    if (draft.cells.size > SCHEDULE_LIMITS.cellsMax) {
      void message.error(t('schedule.tooMany', { max: SCHEDULE_LIMITS.cellsMax }));
      return;
    }
    try {
      const r = await save.mutateAsync({ rule_id: ruleId, month, hash: baseHash ?? data.hash, ...draftBody(draft) });
      setDraft(emptyDraft());
      setBaseHash(null);
      setSelected(new Set());
      void message.success(t('schedule.saved', { count: r.changed }));
    } catch (err) {
      if (err instanceof ApiError && err.code === CODES.CONFLICT) setConflict(err.message);
      else if (!(err instanceof ApiError && err.kind === 'timeout')) void message.error(err instanceof Error ? err.message : String(err));
    }
  };
  const reload = () => {
    reset();
    void grid.refetch();
  };

  const ruleOptions = (rules.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  const selection = selectionPeople(selected);

  return (
    <Card title={t('schedule.title')} data-testid="schedule-page">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 220 }}
          placeholder={t('schedule.pickRule')}
          aria-label={t('schedule.rule')}
          value={ruleId}
          options={ruleOptions}
          loading={rules.isLoading}
          onChange={(v: number) => switchTo(() => (setRuleChoice(v), setPage(1)))}
          data-testid="schedule-rule"
        />
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(v: Dayjs | null) => v && switchTo(() => (setMonth(v.format('YYYY-MM')), setPage(1)))}
          aria-label={t('schedule.month')}
          data-testid="schedule-month"
        />
        {canPickDepartment ? (
          <DepartmentSelect
            allowClear
            style={{ width: 220 }}
            placeholder={t('schedule.department')}
            value={departmentId}
            onChange={(v?: number) => (setDepartmentId(v), setPage(1))}
            data-testid="schedule-department"
          />
        ) : null}
        <Button icon={<ReloadOutlined />} onClick={() => (dirty ? switchTo(() => void grid.refetch()) : void grid.refetch())} data-testid="schedule-refresh" />
      </Space>

      {rules.error ? <ErrorState error={rules.error} onRetry={() => void rules.refetch()} /> : null}
      {rules.data && !rules.data.length ? <Empty description={t('schedule.noRules')} data-testid="schedule-no-rules" /> : null}
      {grid.error && !data ? <ErrorState error={grid.error} onRetry={() => void grid.refetch()} /> : null}

      {conflict ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('schedule.conflict')}
          description={conflict}
          action={
            <Button danger icon={<ReloadOutlined />} onClick={reload} data-testid="schedule-reload">
              {t('schedule.reload')}
            </Button>
          }
          data-testid="schedule-conflict"
        />
      ) : null}

      {data ? (
        <>
          <Space wrap style={{ marginBottom: 8 }} data-testid="schedule-toolbar">
            <Typography.Text>{t('schedule.assign')}</Typography.Text>
            {data.shifts.map((s) => (
              <Tooltip key={s.key} title={`${s.start}–${s.end}`}>
                <Button
                  style={{ background: colourOf.get(s.key), color: '#fff', borderColor: colourOf.get(s.key) }}
                  onClick={() => assign(s.key)}
                  data-testid={`schedule-assign-${s.name}`}
                >
                  {s.name}
                </Button>
              </Tooltip>
            ))}
            {(data.auto_shifts ?? []).length > 1 && (
              <Tooltip title={(data.auto_shifts ?? []).map(shiftName).join(' · ')}>
                <Button
                  style={{ background: AUTO_COLOUR, color: '#fff', borderColor: AUTO_COLOUR }}
                  onClick={() => assign(AUTO_SHIFT_KEY)}
                  data-testid="schedule-assign-auto"
                >
                  {t('schedule.auto')}
                </Button>
              </Tooltip>
            )}
            <Button style={{ background: REST, borderColor: REST }} onClick={() => assign('')} data-testid="schedule-assign-rest">
              {t('schedule.rest')}
            </Button>
            <Button onClick={() => assign(null)} data-testid="schedule-clear">
              {t('schedule.clear')}
            </Button>
            <Button
              disabled={!data.cycles.length}
              onClick={() => (selected.size ? setApplying(true) : void message.info(t('schedule.selectFirst')))}
              data-testid="schedule-apply"
            >
              {t('schedule.applyCycle')}
            </Button>
            <Button
              type="primary"
              icon={<SaveOutlined />}
              disabled={!dirty || Boolean(conflict)}
              loading={save.isPending}
              onClick={() => void onSave()}
              data-testid="schedule-save"
            >
              {t('common.actions.save')}
            </Button>
            <Button disabled={!dirty} onClick={() => switchTo(() => undefined)} data-testid="schedule-discard">
              {t('schedule.discard')}
            </Button>
            {selected.size ? <Typography.Text type="secondary">{t('schedule.selected', { count: selected.size })}</Typography.Text> : null}
            {dirty ? (
              <Typography.Text type="warning" data-testid="schedule-unsaved">
                {t('schedule.unsaved', { count: draftSize(draft, days) })}
              </Typography.Text>
            ) : null}
          </Space>
          <Space wrap size={4} style={{ marginBottom: 8 }}>
            {data.shifts.map((s) => (
              <Tag key={s.key} color={colourOf.get(s.key)}>
                {s.name} {s.start}–{s.end}
              </Tag>
            ))}
            {/* the word the rest cells show (legend and cells say the same) */}
            <Tag style={{ background: REST, color: '#262626' }} data-testid="schedule-legend-rest">
              {t('schedule.restShort')}
            </Tag>
            <Tag style={{ background: `${shiftColour(0)}40` }}>{t('schedule.legendCycle')}</Tag>
            <Tag style={{ borderStyle: 'dashed' }}>{t('schedule.legendUnsaved')}</Tag>
            <Tag style={{ background: '#fff7e6' }}>{t('schedule.legendWeekend')}</Tag>
          </Space>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
            {t(selectionHintKey(touch))}
          </Typography.Paragraph>
          {people.length ? (
            // it scrolls both ways: reachable by keyboard, named (WCAG 2.1.1)
            <div
              tabIndex={0}
              role="region"
              aria-label={t('schedule.title')}
              style={{ overflow: 'auto', maxHeight: '65vh', border: '1px solid #f0f0f0', borderRadius: 6 }}
              data-testid="schedule-grid"
              data-month={month}
            >
              <table style={{ borderCollapse: 'separate', borderSpacing: 0, tableLayout: 'fixed' }}>
                <thead>
                  <tr>
                    <th
                      style={{
                        position: 'sticky',
                        top: 0,
                        left: 0,
                        zIndex: 3,
                        background: '#fafafa',
                        width: NAME_W,
                        minWidth: NAME_W,
                        textAlign: 'left',
                        padding: '4px 8px',
                      }}
                    >
                      {t('schedule.person')}
                    </th>
                    {days.map((d, i) => (
                      <th
                        key={d}
                        onClick={(e) => selectColumn(e, i)}
                        style={{
                          position: 'sticky',
                          top: 0,
                          zIndex: 2,
                          width: CELL_W,
                          minWidth: CELL_W,
                          background: isWeekend(d) ? '#fff7e6' : '#fafafa',
                          fontWeight: 500,
                          fontSize: 12,
                          cursor: 'pointer',
                          padding: '2px 0',
                        }}
                      >
                        <div>{Number(d.slice(8))}</div>
                        <div style={{ color: '#595959', fontWeight: 400 }}>{dayjs(d).format('dd')}</div>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {people.map((p, pi) => (
                    <tr key={p.person_id} data-testid={`schedule-row-${p.number}`}>
                      <td
                        onClick={(e) => selectRow(e, pi)}
                        style={{
                          position: 'sticky',
                          left: 0,
                          zIndex: 1,
                          background: '#fff',
                          padding: '0 8px',
                          borderTop: '1px solid #f0f0f0',
                          cursor: 'pointer',
                          whiteSpace: 'nowrap',
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          maxWidth: NAME_W,
                        }}
                        title={`${p.name} (${p.number})`}
                      >
                        {p.name} <Typography.Text type="secondary">{p.number}</Typography.Text>
                      </td>
                      {days.map((d, di) => {
                        const cell = shownCell(data, draft, p.person_id, d, p.cells[di]!);
                        const k = cellKey(p.person_id, d);
                        const label = cell.shift_key ? cellLabel(cell.shift_key) : cell.source === 'none' ? '' : t('schedule.restShort');
                        return (
                          <td key={d} style={{ padding: 0, borderTop: '1px solid #f0f0f0', background: isWeekend(d) ? '#fff7e6' : undefined }}>
                            <div
                              style={cellStyle(cell, colourOf, selected.has(k))}
                              title={`${p.name} ${d}: ${cell.shift_key || cell.source !== 'none' ? shiftName(cell.shift_key) : '—'}`}
                              onMouseDown={(e) => press(e, pi, di)}
                              onMouseEnter={() => enter(pi, di)}
                              data-testid={`cell-${p.number}-${d}`}
                              data-shift={cell.shift_key ? shiftName(cell.shift_key) : ''}
                              data-source={cell.source}
                              data-edited={cell.edited ? '1' : '0'}
                            >
                              {label}
                            </div>
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty description={t('schedule.noPeople')} />
          )}
          {data.total > PAGE_SIZE ? (
            <Pagination style={{ marginTop: 12 }} current={page} pageSize={PAGE_SIZE} total={data.total} showSizeChanger={false} onChange={setPage} />
          ) : null}
          {applying ? (
            <ApplyCycleDialog
              data={data}
              personIds={selection.personIds}
              firstDate={selection.firstDate ?? days[0]!}
              onClose={() => setApplying(false)}
              onApply={(a) => {
                edit((d) => applyCycle(d, a));
                setApplying(false);
              }}
            />
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

/** "Apply cycle": a template, over dates of the month, starting on one of its days, for the selected people. */
function ApplyCycleDialog(props: {
  data: ScheduleGrid;
  personIds: number[];
  firstDate: string;
  onClose: () => void;
  onApply: (a: { person_ids: number[]; cycle_key: string; from_date: string; to_date: string; start_index: number }) => void;
}) {
  const { t } = useTranslation();
  const { data } = props;
  const [form] = Form.useForm<{ cycle_key: string; range: [Dayjs, Dayjs]; start_index: number }>();
  const cycleKey = Form.useWatch('cycle_key', form);
  const cycle = data.cycles.find((c) => c.key === cycleKey);
  const first = dayjs(data.days[0]);
  const last = dayjs(data.days.at(-1));
  const shiftName = (k: string) => (k === AUTO_SHIFT_KEY ? t('schedule.auto') : k ? (data.shifts.find((s) => s.key === k)?.name ?? '?') : t('schedule.rest'));
  return (
    <Modal
      open
      title={t('schedule.applyTitle')}
      okText={t('schedule.apply')}
      cancelText={t('common.actions.cancel')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'schedule-apply-ok' }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('schedule.peopleSelected', { count: props.personIds.length })}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ cycle_key: data.cycles[0]?.key, range: [dayjs(props.firstDate), last], start_index: 0 }}
        onFinish={(v) =>
          props.onApply({
            person_ids: props.personIds,
            cycle_key: v.cycle_key,
            from_date: v.range[0].format('YYYY-MM-DD'),
            to_date: v.range[1].format('YYYY-MM-DD'),
            start_index: v.start_index,
          })
        }
      >
        <Form.Item name="cycle_key" label={t('schedule.cycle')} rules={[{ required: true, message: t('common.validation.required') }]}>
          <Select
            options={data.cycles.map((c) => ({ value: c.key, label: `${c.name} (${c.days.map(shiftName).join(' · ')})` }))}
            onChange={() => form.setFieldValue('start_index', 0)}
            data-testid="schedule-apply-cycle"
          />
        </Form.Item>
        <Form.Item name="range" label={`${t('schedule.from')} – ${t('schedule.to')}`} rules={[{ required: true, message: t('common.validation.required') }]}>
          <DatePicker.RangePicker
            allowClear={false}
            disabledDate={(d) => d.isBefore(first, 'day') || d.isAfter(last, 'day')}
            defaultPickerValue={[first, first]}
            data-testid="schedule-apply-range"
          />
        </Form.Item>
        <Form.Item name="start_index" label={t('schedule.startDay')}>
          <Select
            options={(cycle?.days ?? []).map((k, i) => ({ value: i, label: t('schedule.startDayOption', { n: i + 1, shift: shiftName(k) }) }))}
            data-testid="schedule-apply-start"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
