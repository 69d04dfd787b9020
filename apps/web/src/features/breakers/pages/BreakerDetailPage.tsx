import { Badge, Button, Card, Col, Row, Space, Statistic, Tag, Tooltip, Typography, type TableProps } from 'antd';
import { ArrowLeftOutlined, WifiOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BreakerLine } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { useBreakerLive, useBreakerRights } from '../api.ts';
import { AlarmTable } from '../components/AlarmTable.tsx';
import { AlarmTag, LineControls, SelfCheckTag } from '../components/LineStatus.tsx';
import { LineEnergyChart } from '../components/LineEnergyChart.tsx';
import { PowerChart } from '../components/PowerChart.tsx';
import { TimerPanel } from '../components/TimerPanel.tsx';
import { formatNumber, formatPower } from '../logic.ts';

/** /circuitBreaker/:id: one breaker's lines with live figures, switching, self-check, power chart, a month's energy by line, timers and alarms. */
export default function BreakerDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { canEdit } = useBreakerRights();
  const info = useBreakerLive(Number.isInteger(id) ? id : 0);
  const b = info.data;

  const back = (
    <Link to="/circuitBreaker/index">
      <Button type="link" icon={<ArrowLeftOutlined />} style={{ paddingInline: 0 }}>
        {t('breaker.back')}
      </Button>
    </Link>
  );
  if (!b) {
    if (info.error)
      return (
        <Card data-testid="breaker-detail-page">
          {back}
          <ErrorState error={info.error} onRetry={info.refetch} retrying={info.isFetching} />
        </Card>
      );
    return <PageLoading />;
  }

  const columns: TableProps<BreakerLine>['columns'] = [
    {
      title: t('breaker.line.title'),
      key: 'title',
      fixed: 'left',
      render: (_, l) => (
        <div className="fa-two-line">
          <Link to={`/circuitBreakerLine/${l.id}`} data-testid="line-open">
            {l.title}
          </Link>
          <Space size={4}>
            <Typography.Text type="secondary">#{l.addr}</Typography.Text>
            {l.main === 1 && <Tag color="blue">{t('breaker.line.main')}</Tag>}
            <Typography.Text type="secondary">{t(`breaker.lineTypes.${l.line_type}`)}</Typography.Text>
          </Space>
        </div>
      ),
    },
    {
      title: t('breaker.line.switch'),
      key: 'switch',
      render: (_, l) => <LineControls line={l} breaker={b.alias || b.uuid} selfCheckSeconds={b.selfcheck_seconds} canEdit={canEdit} />,
    },
    { title: t('breaker.line.power'), key: 'power', render: (_, l) => <span data-testid="line-power">{formatPower(l.power)}</span> },
    { title: t('breaker.line.current'), key: 'current', render: (_, l) => formatNumber(l.current, 2, 'A') },
    { title: t('breaker.line.voltage'), key: 'voltage', render: (_, l) => formatNumber(l.voltage, 1, 'V') },
    { title: t('breaker.line.temperature'), key: 'temperature', render: (_, l) => formatNumber(l.temperature, 1, '°C') },
    { title: t('breaker.line.leakage'), key: 'leakage', render: (_, l) => formatNumber(l.leakage, 1, 'mA') },
    {
      title: t('breaker.line.alarm'),
      key: 'alarm',
      render: (_, l) => (
        <Space size={4} wrap>
          <AlarmTag alarm={l.alarm} />
          <SelfCheckTag state={l.selfcheck} />
        </Space>
      ),
    },
    { title: t('breaker.line.updatedAt'), key: 'updated_at', render: (_, l) => formatDateTime(l.updated_at) || '—' },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="breaker-detail-page">
      <Card
        title={
          <Space wrap size={8}>
            <span data-testid="breaker-title">{b.alias || b.uuid}</span>
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {b.uuid}
            </Typography.Text>
          </Space>
        }
        extra={back}
      >
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}>
            <Statistic
              title={t('breaker.fields.online')}
              valueRender={() => (
                <Badge
                  status={b.online ? 'success' : 'default'}
                  text={b.online ? t('breaker.online.on') : t('breaker.online.off')}
                  data-testid="breaker-online"
                  data-online={b.online ? '1' : '0'}
                />
              )}
            />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t('breaker.fields.power')} value={b.online ? formatPower(b.power) : '—'} data-testid="breaker-power" />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t('breaker.fields.alarms')} value={b.alarms} valueStyle={b.alarms ? { color: '#cf1322' } : undefined} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic
              title={t('breaker.live.title')}
              valueRender={() => (
                <Tooltip title={info.streaming ? t('breaker.live.streaming') : t('breaker.live.polling')}>
                  <Tag icon={<WifiOutlined />} color={info.streaming ? 'green' : 'default'} data-testid="breaker-live">
                    {info.streaming ? t('breaker.live.on') : t('breaker.live.off')}
                  </Tag>
                </Tooltip>
              )}
            />
          </Col>
        </Row>
        {!b.online && (
          <Typography.Paragraph type="warning" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('breaker.offlineHint')}
            {b.last_seen_at ? ` ${t('breaker.lastSeen', { time: formatDateTime(b.last_seen_at) })}` : ''}
          </Typography.Paragraph>
        )}
      </Card>
      <Card size="small" title={t('breaker.line.list')}>
        <DataTable<BreakerLine>
          rowKey="id"
          cardTitle="title"
          size="small"
          dataSource={b.lines}
          columns={columns}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="line-table"
        />
      </Card>
      <PowerChart breakerId={b.id} />
      {b.lines.length > 0 && <LineEnergyChart lines={b.lines} />}
      <TimerPanel breakerId={b.id} breaker={b.alias || b.uuid} lines={b.lines} canEdit={canEdit} />
      <AlarmTable breakerId={b.id} />
    </Space>
  );
}
