import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Col, Descriptions, Empty, Form, Input, InputNumber, Row, Segmented, Select, Space, Switch, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BREAKER_LIMITS, CODES, LINE_TYPES, type EnergyPeriod, type LineInfo, type LineType } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { EChart } from '../../../ui/EChart.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { useBreakerLive, useBreakerRights, useEnergy, useLine, useSaveLine } from '../api.ts';
import { AlarmTable } from '../components/AlarmTable.tsx';
import { AlarmTag, LineControls, SelfCheckTag, useShowOutcome } from '../components/LineStatus.tsx';
import { PowerChart } from '../components/PowerChart.tsx';
import { AMPS_MAX, AMPS_MIN, ampsToMxgl, energySeries, formatNumber, formatPower, mxglToAmps } from '../logic.ts';

interface LimitValues {
  title: string;
  main: boolean;
  line_type: LineType;
  mxgg: number | null;
  amps: number | null;
}

/** /circuitBreakerLine/:id: one line: its figures, the limits written to the breaker, energy per day or month, alarms. */
export default function LineDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { canEdit } = useBreakerRights();
  const line = useLine(Number.isInteger(id) ? id : 0, false);
  const l = line.data;
  // The line's live figures come with its breaker's stream (one stream per breaker).
  const live = useBreakerLive(l?.breaker_id ?? 0);
  const now = live.data?.lines.find((x) => x.id === id);

  const back = (to: string) => (
    <Link to={to}>
      <Button type="link" icon={<ArrowLeftOutlined />} style={{ paddingInline: 0 }}>
        {t('breaker.line.back')}
      </Button>
    </Link>
  );
  if (!l) {
    if (line.error)
      return (
        <Card data-testid="line-detail-page">
          {back('/circuitBreaker/index')}
          <ErrorState error={line.error} onRetry={line.refetch} retrying={line.isFetching} />
        </Card>
      );
    return <PageLoading />;
  }
  const cur = { ...l, ...(now ?? {}) };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="line-detail-page">
      <Card
        title={
          <Space wrap size={8}>
            <span data-testid="line-title">{cur.title}</span>
            {cur.main === 1 && <Tag color="blue">{t('breaker.line.main')}</Tag>}
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {l.breaker_alias || l.breaker_uuid} · #{l.addr}
            </Typography.Text>
          </Space>
        }
        extra={back(`/circuitBreaker/${l.breaker_id}`)}
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
          <Descriptions.Item label={t('breaker.line.switch')}>
            <LineControls line={cur} breaker={l.breaker_alias || l.breaker_uuid} selfCheckSeconds={l.selfcheck_seconds} canEdit={canEdit} />
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.power')}>
            <span data-testid="line-power">{formatPower(cur.power)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.current')}>{formatNumber(cur.current, 2, 'A')}</Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.voltage')}>{formatNumber(cur.voltage, 1, 'V')}</Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.temperature')}>{formatNumber(cur.temperature, 1, '°C')}</Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.leakage')}>{formatNumber(cur.leakage, 1, 'mA')}</Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.energy')}>{formatNumber(cur.energy, 2, 'kWh')}</Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.alarm')}>
            <Space size={4} wrap>
              <AlarmTag alarm={cur.alarm} />
              <SelfCheckTag state={cur.selfcheck} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.line.updatedAt')}>{formatDateTime(cur.updated_at) || '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <LimitsCard line={l} canEdit={canEdit} />
        </Col>
        <Col xs={24} lg={14}>
          <EnergyChart lineId={l.id} />
        </Col>
      </Row>
      <PowerChart breakerId={l.breaker_id} lineId={l.id} />
      <AlarmTable lineId={l.id} />
    </Space>
  );
}

/** spec §5 Line: name, overcurrent limit and max power required; the limits are written to the breaker. */
function LimitsCard({ line, canEdit }: { line: LineInfo; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LimitValues>();
  const save = useSaveLine();
  const show = useShowOutcome();
  useEffect(() => {
    form.setFieldsValue({ title: line.title, main: line.main === 1, line_type: line.line_type, mxgg: line.mxgg, amps: mxglToAmps(line.mxgl) });
  }, [line.title, line.main, line.line_type, line.mxgg, line.mxgl, form]);
  const required = { required: true, message: t('common.validation.required') };

  const submit = async () => {
    let v: LimitValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      const r = await save.mutateAsync({
        id: line.id,
        title: v.title.trim(),
        main: v.main ? 1 : 0,
        line_type: v.line_type,
        mxgg: v.mxgg ?? 0,
        mxgl: ampsToMxgl(v.amps ?? 0),
      });
      // Saved either way; the breaker confirmed the limits, or gets them when it is back.
      if (r.line.limits_synced) message.success(t('breaker.limits.written'));
      else show(r.result);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '').split('.')[0];
      const name = field === 'mxgl' ? 'amps' : field;
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && name && name in form.getFieldsValue())
        form.setFields([{ name: name as keyof LimitValues, errors: [e.message] }]);
      message.error(e.message);
    }
  };

  return (
    <Card
      size="small"
      title={t('breaker.limits.title')}
      data-testid="limits-card"
      extra={
        <Tag color={line.limits_synced ? 'success' : 'processing'} data-testid="limits-synced">
          {line.limits_synced ? t('breaker.limits.synced') : t('breaker.limits.pending')}
        </Tag>
      }
    >
      <Form form={form} layout="vertical" requiredMark disabled={!canEdit}>
        <Form.Item name="title" label={t('breaker.line.name')} rules={[{ ...required, whitespace: true }, { max: BREAKER_LIMITS.lineTitleMax }]}>
          <Input maxLength={BREAKER_LIMITS.lineTitleMax} />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="line_type" label={t('breaker.line.type')}>
              <Select options={LINE_TYPES.map((x) => ({ value: x, label: t(`breaker.lineTypes.${x}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="main" label={t('breaker.line.main')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="mxgg" label={t('breaker.limits.mxgg')} rules={[required]} extra={`1 – ${BREAKER_LIMITS.mxggMax} W`}>
              <InputNumber min={1} max={BREAKER_LIMITS.mxggMax} precision={0} addonAfter="W" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="amps" label={t('breaker.limits.mxgl')} rules={[required]} extra={`${AMPS_MIN} – ${AMPS_MAX} A`}>
              <InputNumber min={AMPS_MIN} max={AMPS_MAX} step={0.5} precision={2} addonAfter="A" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        {canEdit && (
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="limits-save">
            {t('breaker.limits.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** Energy per day (last 30 days) or month (last 12), kWh, in the company's zone. */
function EnergyChart({ lineId }: { lineId: number }) {
  const { t } = useTranslation();
  const [by, setBy] = useState<EnergyPeriod>('day');
  const q = useEnergy(lineId, by);
  const s = useMemo(() => energySeries(q.data), [q.data]);
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v} kWh` : '–') },
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      xAxis: { type: 'category', data: by === 'day' ? s.labels.map((x) => x.slice(5)) : s.labels },
      yAxis: { type: 'value', name: 'kWh' },
      series: [{ name: t('breaker.chart.energy'), type: 'bar', data: s.kwh }],
    }),
    [s, by, t],
  );
  return (
    <Card
      size="small"
      title={t('breaker.chart.energy')}
      data-testid="energy-chart"
      extra={
        <Segmented<EnergyPeriod>
          size="small"
          value={by}
          onChange={setBy}
          options={[
            { value: 'day', label: t('breaker.chart.perDay') },
            { value: 'month', label: t('breaker.chart.perMonth') },
          ]}
        />
      }
    >
      {q.error && !q.data ? (
        <ErrorState error={q.error} onRetry={q.refetch} retrying={q.isFetching} />
      ) : (
        <>
          {q.isSuccess && s.labels.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('breaker.chart.empty')} style={{ height: 228, paddingTop: 48 }} />
          ) : (
            <EChart option={option} height={260} loading={q.isLoading} />
          )}
          <Typography.Text type="secondary">{t('breaker.chart.total', { kwh: s.total })}</Typography.Text>
        </>
      )}
    </Card>
  );
}
