import { useState } from 'react';
import { Button, Modal } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { VISITOR_STATES, type Visitor, type VisitorListQuery } from '@faceadmin/shared';
import { useRightLevel, useUserInfo } from '../../../lib/session.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
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
  const state = useListQuery<VisitorListQuery>({}, 20);
  const list = useVisitors(state.query);
  const [inviting, setInviting] = useState(false);
  // a person-view administrator reads the invitations; the doors are the invitation form's (person edit)
  const doors = useVisitorDoors(canEdit);
  const invite = useInviteVisitor();
  const cancel = useCancelVisitor();

  const columns: ListColumn<Visitor>[] = [
    { title: t('visitor.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('visitor.fields.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('visitor.fields.company'), dataIndex: 'company', key: 'company' },
    { title: t('visitor.fields.reason'), dataIndex: 'reason', key: 'reason' },
    {
      title: t('visitor.fields.window'),
      key: 'window',
      render: (_, v) => `${formatDateTime(v.starts_at).slice(0, 16)} – ${formatDateTime(v.ends_at).slice(0, 16)}`,
    },
    { title: t('visitor.fields.doors'), key: 'doors', render: (_, v) => v.doors.map((d) => d.name).join(', ') },
    { title: t('visitor.fields.inviter'), dataIndex: 'inviter', key: 'inviter' },
    { title: t('visitor.fields.state'), key: 'state', render: (_, v) => <VisitorStateTag v={v} /> },
    { title: t('visitor.fields.arrived'), key: 'arrived', render: (_, v) => formatDateTime(v.arrived_at) },
  ];
  const actions: ListAction<Visitor>[] = [
    {
      key: 'cancel',
      label: t('visitor.cancel'),
      danger: true,
      hidden: (v) => !canEdit || (v.state !== 'invited' && v.state !== 'active'),
      confirm: (v) => ({ title: t('visitor.cancelConfirm', { name: v.name }) }),
      run: (v) => cancel.mutateAsync(v.id),
      testId: 'visitor-cancel',
    },
  ];

  return (
    <ListPage<Visitor, VisitorListQuery>
      title={t('route.visitors')}
      testId="visitors-page"
      tableTestId="visitor-table"
      cardTitle="name"
      extra={
        canEdit ? (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setInviting(true)} data-testid="visitor-invite-open">
            {t('visitor.invite')}
          </Button>
        ) : null
      }
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('visitor.keyword'), testId: 'visitor-keyword' },
        {
          kind: 'select',
          param: 'state',
          placeholder: t('visitor.fields.state'),
          width: 160,
          options: VISITOR_STATES.map((s) => ({ value: s, label: t(`visitor.states.${s}`) })),
          testId: 'visitor-state-filter',
        },
      ]}
    >
      <Modal open={inviting} title={t('visitor.invite')} footer={null} onCancel={() => setInviting(false)} destroyOnHidden data-testid="visitor-invite-modal">
        <InviteForm doors={doors.data?.items} zone={zone} submit={(v) => invite.mutateAsync(v)} />
      </Modal>
    </ListPage>
  );
}
