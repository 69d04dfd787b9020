import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@faceadmin/shared';
import { AlarmRing } from '../../features/breakers/components/AlarmRing.tsx';
import { useUnreadCount } from '../../features/messages/api.ts';

/** Unread-message bell polled every 20 s; the badge is capped at 99 (spec §9). A new breaker alarm rings when the company asks for it. */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = useUnreadCount(true).data?.count ?? 0;
  return (
    <>
      <AlarmRing />
      <Tooltip title={t('layout.messages')}>
        <Badge count={count} overflowCount={LIMITS.badgeCap} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            aria-label={t('layout.messages')}
            data-testid="message-bell"
            data-unread={count}
            icon={<BellOutlined />}
            onClick={() => void navigate('/message/message')}
          />
        </Badge>
      </Tooltip>
    </>
  );
}
