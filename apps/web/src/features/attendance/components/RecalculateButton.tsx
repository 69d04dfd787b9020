import { useEffect, useState } from 'react';
import { App, Button, DatePicker, Modal, Progress, Space, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useRecalculate, useRecalcStatus, useRefreshDays } from '../api.ts';
import { progressOf } from '../logic.ts';

/** "Attendance update" (spec §8): recalculate a date range now, with a progress bar; no date chosen → the spec's message. */
export function RecalculateButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  // how many person-days were queued; undefined = not running
  const [queued, setQueued] = useState<number>();
  // answers older than the start speak of an earlier update
  const [startedAt, setStartedAt] = useState(0);
  const recalc = useRecalculate();
  const status = useRecalcStatus(queued !== undefined);
  const refresh = useRefreshDays();
  const pending = status.dataUpdatedAt > startedAt ? (status.data?.pending ?? 0) : (queued ?? 0);
  const running = queued !== undefined && pending > 0;
  const done = queued !== undefined && status.dataUpdatedAt > startedAt && status.data?.pending === 0;

  useEffect(() => {
    if (!done) return;
    void refresh();
    message.success(t('att.update.done'));
    // the update has finished: stop polling (the bar stays at 100 %)
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setQueued(undefined);
  }, [done, refresh, message, t]);

  const start = async () => {
    const from = range?.[0]?.format('YYYY-MM-DD');
    const to = range?.[1]?.format('YYYY-MM-DD');
    if (!from || !to) {
      // spec §5/§8: the same words the server would answer, without the round trip
      message.error(t('att.update.noDate'));
      return;
    }
    setStartedAt(Date.now());
    const r = await recalc.mutateAsync({ from, to });
    setQueued(Math.max(r.pending, 1));
  };

  const percent = queued === undefined ? (recalc.isSuccess ? 100 : 0) : progressOf(queued, pending);

  return (
    <>
      <Button icon={<SyncOutlined />} onClick={() => setOpen(true)} data-testid="att-update">
        {t('att.update.button')}
      </Button>
      <Modal
        title={t('att.update.title')}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => void start().catch(() => undefined)}
        okText={t('att.update.start')}
        cancelText={t('common.actions.cancel')}
        confirmLoading={recalc.isPending || running}
        okButtonProps={{ 'data-testid': 'att-update-start' }}
        afterClose={() => recalc.reset()}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('att.update.help')}</Typography.Paragraph>
          <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} style={{ width: '100%' }} data-testid="att-update-range" />
          {(queued !== undefined || recalc.isSuccess) && (
            <div data-testid="att-update-progress" data-percent={percent}>
              <Progress percent={percent} status={running ? 'active' : 'success'} />
              <Typography.Text type="secondary">{running ? t('att.update.pending', { count: pending }) : t('att.update.done')}</Typography.Text>
            </div>
          )}
        </Space>
      </Modal>
    </>
  );
}
