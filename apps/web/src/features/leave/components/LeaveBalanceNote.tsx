import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LeaveBalance } from '@faceadmin/shared';

export const days = (d: number) => String(Math.round(d * 100) / 100);

/** The applicant's balance of a leave's type and year, for whoever decides it (console drawer, self-service task). */
export function LeaveBalanceNote({ balance, waiting }: { balance: LeaveBalance | null | undefined; waiting: boolean }) {
  const { t } = useTranslation();
  if (!balance) return null;
  const short = balance.remaining < 0;
  return (
    <Alert
      style={{ marginTop: 12 }}
      type={short ? 'warning' : 'info'}
      showIcon
      data-testid="leave-balance-note"
      title={t('leave.note.title', { type: balance.label, year: balance.year, remaining: days(balance.remaining) })}
      description={t(waiting ? 'leave.note.detailWaiting' : 'leave.note.detail', {
        quota: days(balance.quota),
        carried: days(balance.carried),
        used: days(balance.used),
        pending: days(balance.pending),
      })}
    />
  );
}
