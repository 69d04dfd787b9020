import { useState } from 'react';
import { Alert, App, Empty, Input, Modal, Radio, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TIMING } from '@faceadmin/shared';
import { sessionKeys } from '../../../lib/session.ts';
import { useTransfer, useTransferSearch } from '../api.ts';

/**
 * spec §2 admin-transfer dialog: keyword search, one result chosen by radio, total shown, irreversible confirm;
 * afterwards the profile is refreshed and the user goes to / after 1 s.
 */
export function TransferAdminDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<number | null>(null);
  const search = useTransferSearch(keyword, open);
  const transfer = useTransfer();

  const confirm = () => {
    if (chosen === null) return;
    modal.confirm({
      title: t('profile.transfer.confirmTitle'),
      content: t('profile.transfer.irreversible'),
      okText: t('common.actions.ok'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await transfer.mutateAsync(chosen);
        } catch (e) {
          message.error((e instanceof Error && e.message) || t('errors.operationFailed'));
          return;
        }
        message.success(t('profile.transfer.done'));
        await queryClient.invalidateQueries({ queryKey: sessionKeys.info });
        onClose();
        setTimeout(() => void navigate('/'), TIMING.transferRedirect);
      },
    });
  };

  const items = search.data?.items ?? [];
  return (
    <Modal
      title={t('profile.transfer.title')}
      open={open}
      onCancel={onClose}
      onOk={confirm}
      okText={t('profile.transfer.submit')}
      cancelText={t('common.actions.cancel')}
      okButtonProps={{ disabled: chosen === null, loading: transfer.isPending }}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('profile.transfer.irreversible')} />
        <Input.Search
          placeholder={t('profile.transfer.keyword')}
          allowClear
          enterButton={t('common.actions.search')}
          onSearch={(v) => {
            setChosen(null);
            setKeyword(v.trim());
          }}
        />
        <Typography.Text type="secondary">{t('common.total', { count: search.data?.total ?? 0 })}</Typography.Text>
        {items.length === 0 ? (
          <Empty description={t('common.noData')} />
        ) : (
          <Radio.Group value={chosen} onChange={(e) => setChosen(e.target.value as number)}>
            <Space orientation="vertical">
              {items.map((c) => (
                <Radio key={c.id} value={c.id}>
                  {c.name}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        )}
      </Space>
    </Modal>
  );
}
