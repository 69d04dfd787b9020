import { Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { leaveApi } from '@faceadmin/shared';
import { selfCall } from '../../workflow/self/selfClient.ts';
import { days } from './LeaveBalanceNote.tsx';

/** On the self-service leave form: what is left of each leave type that keeps a balance, before applying. */
export function SelfLeaveBalances() {
  const { t } = useTranslation();
  const mine = useQuery({ queryKey: ['self', 'leave-balance'], queryFn: () => selfCall(leaveApi.self, {}) });
  const items = mine.data?.items ?? [];
  if (!items.length) return null;
  return (
    <div style={{ marginBottom: 12 }} data-testid="self-leave-balances">
      <Typography.Text type="secondary">{t('leave.self.title', { year: mine.data!.year })}</Typography.Text>
      <Space size={[6, 6]} wrap style={{ display: 'flex', marginTop: 4 }}>
        {items.map((b) => (
          <Tag key={b.leave_type} color={b.remaining > 0 ? 'blue' : 'default'}>
            {t('leave.self.left', { type: b.label, remaining: days(b.remaining - b.pending) })}
            {b.pending > 0 && ` (${t('leave.self.pending', { pending: days(b.pending) })})`}
          </Tag>
        ))}
      </Space>
    </div>
  );
}
