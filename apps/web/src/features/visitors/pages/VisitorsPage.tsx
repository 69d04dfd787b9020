import { useState } from 'react';
import { Button, Card, Modal, Popconfirm, Select, Space } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { VISITOR_STATES, type Visitor, type VisitorListQuery } from '@faceadmin/shared';
import { useRightLevel, useUserInfo } from '../../../lib/session.ts';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useCancelVisitor, useInviteVisitor, useVisitorDoors, useVisitors } from '../api.ts';
import { InviteForm } from '../components/InviteForm.tsx';
import { VisitorStateTag } from '../components/VisitorState.tsx';

/**
 * System → Visitors (#19): the company's invitations with their state, an invitation form (the one-time link shown
 * once, with a copy button) and cancelling, which removes the visitor from every door at once.
 */
export default function VisitorsPage() {
  const { t } = useTranslation();
  const zone = useUserInfo().data?.time_zone ?? 'UTC';
  const canEdit = useRightLevel('person').canEdit;
  const [query, setQuery] = useState<PagedQuery<VisitorListQuery>>({ page: 1, pageSize: 20 });
  const list = useVisitors(query);
  const [inviting, setInviting] = useState(false);
  // a person-view administrator reads the invitations; the doors are the invitation form's (person edit)
  const doors = useVisitorDoors(canEdit);
  const invite = useInviteVisitor();
  const cancel = useCancelVisitor();

  const columns = [
    { title: t('visitor.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('visitor.fields.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('visitor.fields.company'), dataIndex: 'company', key: 'company' },
    { title: t('visitor.fields.reason'), dataIndex: 'reason', key: 'reason' },
    {
      title: t('visitor.fields.window'),
      key: 'window',
      render: (_: unknown, v: Visitor) => `${formatDateTime(v.starts_at).slice(0, 16)} – ${formatDateTime(v.ends_at).slice(0, 16)}`,
    },
    { title: t('visitor.fields.doors'), key: 'doors', render: (_: unknown, v: Visitor) => v.doors.map((d) => d.name).join(', ') },
    { title: t('visitor.fields.inviter'), dataIndex: 'inviter', key: 'inviter' },
    { title: t('visitor.fields.state'), key: 'state', render: (_: unknown, v: Visitor) => <VisitorStateTag v={v} /> },
    { title: t('visitor.fields.arrived'), key: 'arrived', render: (_: unknown, v: Visitor) => formatDateTime(v.arrived_at) },
    {
      title: t('common.actions.title'),
      key: 'actions',
      render: (_: unknown, v: Visitor) =>
        canEdit && (v.state === 'invited' || v.state === 'active') ? (
          <Popconfirm title={t('visitor.cancelConfirm', { name: v.name })} onConfirm={() => cancel.mutateAsync(v.id)}>
            <Button size="small" danger data-testid="visitor-cancel">
              {t('visitor.cancel')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <Card
      title={t('route.visitors')}
      data-testid="visitors-page"
      extra={
        canEdit ? (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)} data-testid="visitor-invite-open">
            {t('visitor.invite')}
          </Button>
        ) : null
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <KeywordSearch placeholder={t('visitor.keyword')} width={240} onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))} />
        <Select
          allowClear
          placeholder={t('visitor.fields.state')}
          style={{ width: 160 }}
          options={VISITOR_STATES.map((s) => ({ value: s, label: t(`visitor.states.${s}`) }))}
          onChange={(state?: Visitor['state']) => setQuery((q) => ({ ...q, page: 1, state }))}
          data-testid="visitor-state-filter"
        />
      </Space>
      <DataTable<Visitor>
        rowKey="id"
        loading={list.isFetching}
        error={list.error}
        onRetry={list.refetch}
        cardTitle="name"
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={pagination(query, setQuery, list.data?.total, t)}
        data-testid="visitor-table"
      />
      <Modal open={inviting} title={t('visitor.invite')} footer={null} onCancel={() => setInviting(false)} destroyOnHidden data-testid="visitor-invite-modal">
        <InviteForm doors={doors.data?.items} zone={zone} submit={(v) => invite.mutateAsync(v)} />
      </Modal>
    </Card>
  );
}
