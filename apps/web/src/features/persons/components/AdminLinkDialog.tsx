import { useState } from 'react';
import { App, Button, Modal, Popconfirm, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdminBindings, Person } from '@faceadmin/shared';
import { useLinkAdmin, useUnlinkAdmin } from '../api.ts';

/**
 * spec §7 /person/bindAdmin: links the person to an administrator account of the company, so a manager who is
 * also an employee has one identity (the account opens self-service as them). Unlinking asks first.
 */
export function AdminLinkDialog({
  person,
  links,
  companyId,
  onClose,
}: {
  person: Person | null;
  links: AdminBindings | undefined;
  companyId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [adminId, setAdminId] = useState<number | undefined>();
  const link = useLinkAdmin();
  const unlink = useUnlinkAdmin();
  const current = person ? links?.items.find((i) => i.person_id === person.id) : undefined;
  const close = () => {
    setAdminId(undefined);
    onClose();
  };
  return (
    <Modal open={person !== null} title={t('person.adminLink.title', { name: person?.name ?? '' })} onCancel={close} footer={null} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('person.adminLink.help')}</Typography.Paragraph>
      {current ? (
        <Space data-testid="admin-link-current">
          <span>{t('person.adminLink.linked', { name: current.admin_name, username: current.username })}</span>
          <Popconfirm
            title={t('person.adminLink.unlinkConfirm', { name: person?.name ?? '', username: current.username })}
            okText={t('common.actions.ok')}
            cancelText={t('common.actions.cancel')}
            onConfirm={async () => {
              await unlink.mutateAsync({ company_id: companyId, person_id: current.person_id });
              message.success(t('person.adminLink.unlinked'));
              close();
            }}
          >
            <Button danger data-testid="admin-unlink">
              {t('person.adminLink.unlink')}
            </Button>
          </Popconfirm>
        </Space>
      ) : (
        <Space wrap>
          <Select
            style={{ width: 260 }}
            placeholder={t('person.adminLink.account')}
            aria-label={t('person.adminLink.account')}
            value={adminId}
            onChange={setAdminId}
            options={(links?.candidates ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.username})` }))}
            data-testid="admin-link-select"
          />
          <Button
            type="primary"
            disabled={!adminId || !person}
            loading={link.isPending}
            data-testid="admin-link-save"
            onClick={async () => {
              await link.mutateAsync({ person_id: person!.id, admin_id: adminId! });
              message.success(t('person.adminLink.done'));
              close();
            }}
          >
            {t('person.adminLink.link')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}
