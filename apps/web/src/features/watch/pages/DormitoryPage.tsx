import { useMemo, useRef } from 'react';
import { App, Button, Card, Col, Form, Row, Select, Space, Statistic, Table, TimePicker, Typography, type TableProps } from 'antd';
import { DesktopOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { DormitoryBuilding, DormitoryPerson, DormitorySettingsView } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useRightLevel } from '../../../lib/session.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { useAccessibleTables } from '../../../ui/useAccessibleTables.ts';
import { useDormitorySettings, useDormitoryStatus, useSaveDormitorySettings } from '../api.ts';
import { acrossBuildings } from '../logic.ts';
import { DormitoryChart, shortTime, useLatestReturns } from '../components/Dormitory.tsx';
import { LiveIndicator } from '../components/WatchScreen.tsx';

/** The return hour and the buildings, for an administrator who may set them (attendance, or face-device edit). */
function SettingsForm({ settings }: { settings: DormitorySettingsView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveDormitorySettings();
  const [form] = Form.useForm<{ return_by: Dayjs | null; department_ids: number[] }>();
  const paths = useMemo(() => {
    const byId = new Map(settings.departments.map((d) => [d.id, d]));
    return settings.departments.map((d) => {
      const parts: string[] = [];
      for (let x: typeof d | undefined = d, g = 0; x && g < 50; x = byId.get(x.parent_id), g++) parts.unshift(x.name);
      return { value: d.id, label: parts.join(' / ') };
    });
  }, [settings.departments]);
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await save.mutateAsync({ return_by: v.return_by!.format('HH:mm'), department_ids: v.department_ids ?? [] });
      message.success(t('watch.dorm.saved'));
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field?.split('.')[0] : undefined;
      if (field === 'return_by' || field === 'department_ids') form.setFields([{ name: field, errors: [(e as Error).message] }]);
    }
  };
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={{ return_by: dayjs(`2000-01-01 ${settings.return_by}`), department_ids: settings.department_ids }}
      style={{ rowGap: 8 }}
      data-testid="dorm-settings"
    >
      <Form.Item name="return_by" label={t('watch.dorm.returnBy')} rules={[{ required: true, message: t('watch.dorm.returnByRequired') }]}>
        <TimePicker format="HH:mm" minuteStep={1} needConfirm={false} allowClear={false} data-testid="dorm-return-by" />
      </Form.Item>
      <Form.Item name="department_ids" label={t('watch.dorm.buildings')} tooltip={t('watch.dorm.buildingsHelp')}>
        <Select
          mode="multiple"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('watch.dorm.topLevel')}
          options={paths}
          style={{ minWidth: 260, maxWidth: 560 }}
          data-testid="dorm-buildings"
        />
      </Form.Item>
      <Form.Item>
        <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="dorm-save">
          {t('common.actions.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}

type Listed = DormitoryPerson & { building: string };
const NONE: readonly number[] = [];

/** /dormitory: residents in and out by building now, who is not back after the hour, late returns (issue #16). */
export default function DormitoryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const attendance = useRightLevel('attendance');
  const face = useRightLevel('face');
  const canSet = attendance.canView || face.canEdit;
  const settings = useDormitorySettings();
  const status = useDormitoryStatus();
  const buildingIds = useMemo(() => status.data?.buildings.map((b) => b.id) ?? NONE, [status.data]);
  const returns = useLatestReturns(settings.data, buildingIds);

  const notBack = useMemo(() => acrossBuildings((status.data?.buildings ?? []).map((b) => ({ name: b.name, people: b.not_back }))), [status.data]);
  const late = useMemo(() => acrossBuildings((status.data?.buildings ?? []).map((b) => ({ name: b.name, people: b.late }))), [status.data]);
  const box = useRef<HTMLDivElement>(null);
  useAccessibleTables(box);

  if (status.isLoading) return <PageLoading />;
  if (status.error && !status.data) return <ErrorState error={status.error} onRetry={status.refetch} retrying={status.isFetching} />;
  const s = status.data!;

  const buildingColumns: TableProps<DormitoryBuilding>['columns'] = [
    { title: t('watch.dorm.building'), dataIndex: 'name', key: 'name' },
    { title: t('watch.dorm.total'), dataIndex: 'total', key: 'total', align: 'right' },
    { title: t('watch.dorm.inside'), dataIndex: 'inside', key: 'inside', align: 'right' },
    { title: t('watch.dorm.out'), dataIndex: 'out', key: 'out', align: 'right' },
    { title: t('watch.dorm.unknown'), dataIndex: 'unknown', key: 'unknown', align: 'right', responsive: ['md'] },
    {
      title: t('watch.dorm.notBack'),
      key: 'not_back',
      align: 'right',
      render: (_, b) => <Typography.Text type={b.not_back.length ? 'danger' : undefined}>{b.not_back.length}</Typography.Text>,
    },
    {
      title: t('watch.dorm.late'),
      key: 'late',
      align: 'right',
      render: (_, b) => <Typography.Text type={b.late.length ? 'warning' : undefined}>{b.late.length}</Typography.Text>,
    },
  ];
  const personColumns = (isLate: boolean): TableProps<Listed>['columns'] => [
    { title: t('watch.dorm.name'), dataIndex: 'name', key: 'name' },
    { title: t('watch.dorm.number'), dataIndex: 'number', key: 'number', responsive: ['md'] },
    { title: t('watch.dorm.building'), dataIndex: 'building', key: 'building' },
    { title: isLate ? t('watch.dorm.cameBack') : t('watch.dorm.wentOut'), dataIndex: 'time', key: 'time', render: (v: string) => shortTime(v) },
    ...(isLate
      ? [
          {
            title: t('watch.dorm.lateBy'),
            dataIndex: 'late_min',
            key: 'late_min',
            render: (v: number | null) => (v === null ? '' : t('watch.dorm.minutes', { n: v })),
          },
        ]
      : []),
    { title: t('watch.dorm.device'), dataIndex: 'device', key: 'device', responsive: ['lg'] },
  ];
  const deadline = shortTime(s.deadline);

  return (
    <div ref={box}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="dormitory-page">
        <Card
          title={t('route.dormitory')}
          extra={
            <Space wrap>
              <LiveIndicator />
              <Button icon={<DesktopOutlined />} onClick={() => void navigate('/dormitory2')} data-testid="dorm-board-link">
                {t('route.dormitory2')}
              </Button>
            </Space>
          }
        >
          {canSet && settings.data ? (
            <SettingsForm key={`${settings.data.return_by}|${settings.data.department_ids.join(',')}`} settings={settings.data} />
          ) : (
            <Typography.Text>
              {t('watch.dorm.returnBy')}: {s.return_by}
            </Typography.Text>
          )}
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="dorm-deadline">
            {s.passed_today ? t('watch.dorm.deadlineToday', { time: deadline }) : t('watch.dorm.deadlineLast', { time: deadline })}
          </Typography.Paragraph>
        </Card>
        <Row gutter={[16, 16]} data-testid="dorm-totals">
          {(
            [
              ['total', s.totals.total, undefined],
              ['inside', s.totals.inside, '#3f8600'],
              ['out', s.totals.out, '#ad4e00'],
              ['notBack', s.totals.not_back, s.totals.not_back ? '#cf1322' : undefined],
              ['late', s.totals.late, s.totals.late ? '#874d00' : undefined],
              ['unknown', s.totals.unknown, undefined],
            ] as const
          ).map(([key, value, color]) => (
            <Col xs={12} sm={8} lg={4} key={key}>
              <Card size="small">
                <Statistic title={t(`watch.dorm.${key}`)} value={value} styles={{ content: color ? { color } : {} }} data-testid={`dorm-total-${key}`} />
              </Card>
            </Col>
          ))}
        </Row>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Card size="small" title={t('watch.dorm.byBuilding')}>
              <DormitoryChart buildings={s.buildings} height={300} loading={status.isFetching && !status.data} />
              <Table<DormitoryBuilding>
                rowKey="id"
                size="small"
                pagination={false}
                columns={buildingColumns}
                dataSource={s.buildings}
                style={{ marginTop: 12 }}
                scroll={{ x: 'max-content' }}
                data-testid="dorm-buildings-table"
              />
            </Card>
          </Col>
          <Col xs={24} lg={10}>
            <Card size="small" title={t('watch.dorm.latestReturns')} data-testid="dorm-returns">
              {returns.length === 0 ? (
                <Typography.Text type="secondary">{t('watch.dorm.noReturns')}</Typography.Text>
              ) : (
                <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                  {returns.map((r) => (
                    <li key={r.id} style={{ padding: '4px 0', borderBottom: '1px solid rgba(128,128,128,0.15)' }}>
                      <Typography.Text strong>{r.name}</Typography.Text>{' '}
                      <Typography.Text type="secondary">
                        {r.time} · {[r.department, r.device].filter(Boolean).join(' · ')}
                      </Typography.Text>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </Col>
        </Row>
        <Card size="small" title={`${t('watch.dorm.notBack')} (${notBack.length})`}>
          <Table<Listed>
            rowKey={(r) => `${r.person_id}-${r.building}`}
            size="small"
            columns={personColumns(false)}
            dataSource={notBack}
            pagination={notBack.length > 20 ? { pageSize: 20 } : false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('watch.dorm.allBack') }}
            data-testid="dorm-not-back"
          />
        </Card>
        <Card size="small" title={`${t('watch.dorm.lateReturns')} (${late.length})`}>
          <Table<Listed>
            rowKey={(r) => `${r.person_id}-${r.building}`}
            size="small"
            columns={personColumns(true)}
            dataSource={late}
            pagination={late.length > 20 ? { pageSize: 20 } : false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('watch.dorm.noLate') }}
            data-testid="dorm-late"
          />
        </Card>
      </Space>
    </div>
  );
}
