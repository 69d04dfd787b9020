import { useEffect, useState } from 'react';
import { Alert, App, Button, DatePicker, Modal, Popconfirm, Progress, Space, Table, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ClosedPeriod } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { DateTime } from '../../../ui/DateTime.tsx';
import { useClosePeriod, usePeriods, useRecalcStatus, useRefreshDays, useReopenPeriod } from '../api.ts';
import { progressOf } from '../logic.ts';

/**
 * Closed periods (#17): an administrator closes a range of days (e.g. a month after payroll); its results are then
 * neither recalculated nor edited until it is reopened (which asks first, and recalculates the period with the
 * "attendance update" progress, #18). Both are in the operation log.
 */
export function ClosedPeriodsButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [error, setError] = useState<string>();
  const list = usePeriods(open);
  const close = useClosePeriod();
  const reopen = useReopenPeriod();
  // the recalculation a reopening queued: how many were queued (undefined: none running), and since when
  const [queued, setQueued] = useState<number>();
  const [startedAt, setStartedAt] = useState(0);
  const status = useRecalcStatus(queued !== undefined);
  const refresh = useRefreshDays();
  const pending = status.dataUpdatedAt > startedAt ? (status.data?.pending ?? 0) : (queued ?? 0);
  const done = queued !== undefined && status.dataUpdatedAt > startedAt && status.data?.pending === 0;
  const [finished, setFinished] = useState(false);

  useEffect(() => {
    if (!done) return;
    void refresh();
    // the recalculation has finished: stop polling (the bar stays at 100 %)
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setQueued(undefined);
    setFinished(true);
  }, [done, refresh]);

  const submit = async () => {
    const from = range?.[0]?.format('YYYY-MM-DD');
    const to = range?.[1]?.format('YYYY-MM-DD');
    if (!from || !to) {
      setError(t('att.period.noRange'));
      return;
    }
    setError(undefined);
    try {
      await close.mutateAsync({ from, to });
      message.success(t('att.period.closed'));
      setRange(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  return (
    <>
      <Button icon={<LockOutlined />} onClick={() => setOpen(true)} data-testid="att-periods">
        {t('att.period.button')}
      </Button>
      <Modal title={t('att.period.title')} open={open} onCancel={() => setOpen(false)} footer={null} width={640} destroyOnHidden>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('att.period.help')}</Typography.Paragraph>
          {error && <Alert type="error" showIcon title={error} data-testid="att-period-error" />}
          <Space wrap>
            <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} data-testid="att-period-range" />
            <Button type="primary" loading={close.isPending} onClick={() => void submit()} data-testid="att-period-close">
              {t('att.period.close')}
            </Button>
          </Space>
          {(queued !== undefined || finished) && (
            <div data-testid="att-period-progress" data-percent={queued === undefined ? 100 : progressOf(queued, pending)}>
              <Progress percent={queued === undefined ? 100 : progressOf(queued, pending)} status={queued !== undefined ? 'active' : 'success'} />
              <Typography.Text type="secondary">{queued !== undefined ? t('att.update.pending', { count: pending }) : t('att.update.done')}</Typography.Text>
            </div>
          )}
          <Table<ClosedPeriod>
            rowKey="id"
            size="small"
            loading={list.isLoading}
            dataSource={list.data?.items ?? []}
            pagination={false}
            locale={{ emptyText: t('att.period.none') }}
            data-testid="att-period-table"
            columns={[
              { title: t('att.period.fields.period'), key: 'period', render: (_, p) => `${p.from} – ${p.to}` },
              { title: t('att.period.fields.closedBy'), dataIndex: 'closed_by', key: 'closed_by' },
              { title: t('att.period.fields.closedAt'), dataIndex: 'closed_at', key: 'closed_at', render: (v: string) => <DateTime value={v} /> },
              {
                title: t('common.actions.title'),
                key: 'actions',
                render: (_, p) => (
                  <Popconfirm
                    title={t('att.period.reopenConfirm', { from: p.from, to: p.to })}
                    okText={t('common.actions.ok')}
                    cancelText={t('common.actions.cancel')}
                    onConfirm={async () => {
                      setStartedAt(Date.now());
                      setFinished(false);
                      const r = await reopen.mutateAsync(p.id);
                      setQueued(Math.max(r.pending, 1));
                      message.success(t('att.period.reopened'));
                    }}
                  >
                    <Button size="small" data-testid="att-period-reopen">
                      {t('att.period.reopen')}
                    </Button>
                  </Popconfirm>
                ),
              },
            ]}
          />
        </Space>
      </Modal>
    </>
  );
}
