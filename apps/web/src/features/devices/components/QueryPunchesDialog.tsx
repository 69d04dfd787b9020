import { useState } from 'react';
import { DatePicker, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  loading: boolean;
  onCancel: () => void;
  onOk: (from: string, to: string) => void;
}

/** Re-upload punches: asks the device for its records of a date range (queryPunches). */
export function QueryPunchesDialog({ open, loading, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>([dayjs().subtract(7, 'day'), dayjs()]);
  const from = range?.[0];
  const to = range?.[1];
  return (
    <Modal
      title={t('device.actions.queryPunches')}
      open={open}
      onCancel={onCancel}
      onOk={() => from && to && onOk(from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD'))}
      okButtonProps={{ disabled: !from || !to }}
      confirmLoading={loading}
      okText={t('common.actions.ok')}
      cancelText={t('common.actions.cancel')}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('device.queryPunchesHint')}</Typography.Paragraph>
      <DatePicker.RangePicker value={range} onChange={(v) => setRange(v)} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
    </Modal>
  );
}
