import { Alert, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BrokerAddress } from '@faceadmin/shared';
import { connectionFacts } from '../logic.ts';

interface Props {
  /** What to show; undefined: closed. */
  shown: { uuid: string; password: string; broker: BrokerAddress } | undefined;
  onClose: () => void;
}

/**
 * The breaker's MQTT password, shown once (on registration or after a reset: the server keeps only a hash), with
 * what a technician sets on the breaker: host, port, user name (the uuid) and the topic prefix.
 */
export function PasswordDialog({ shown, onClose }: Props) {
  const { t } = useTranslation();
  const facts = shown ? connectionFacts(shown.uuid, shown.password, shown.broker, window.location.hostname) : undefined;
  return (
    <Modal
      title={t('breaker.password.title')}
      open={Boolean(shown)}
      onCancel={onClose}
      onOk={onClose}
      okText={t('breaker.password.done')}
      okButtonProps={{ 'data-testid': 'breaker-password-done' }}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('breaker.password.once')} style={{ marginBottom: 16 }} />
      {facts && (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('breaker.password.host')}>
            <Typography.Text copyable>{facts.host}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.password.port')}>
            <Typography.Text copyable data-testid="breaker-port">
              {String(facts.port)}
            </Typography.Text>
            {facts.tls && <Typography.Text type="secondary"> (TLS)</Typography.Text>}
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.password.username')}>
            <Typography.Text copyable>{facts.username}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.password.password')}>
            <Typography.Text copyable code data-testid="breaker-password">
              {facts.password}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('breaker.password.prefix')}>
            <Typography.Text copyable>{facts.prefix}</Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
