import { useState } from 'react';
import { Badge, Button, Space, Tag, Typography } from 'antd';
import { EditOutlined, KeyOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Breaker, BreakerListQuery, BrokerAddress } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { connectedList, deleteAction } from '../../../ui/listParts.tsx';
import { useBreakerRights, useBreakers, useDeleteBreaker, useResetPassword } from '../api.ts';
import { BreakerDialog } from '../components/BreakerDialog.tsx';
import { PasswordDialog } from '../components/PasswordDialog.tsx';
import { formatPower } from '../logic.ts';

/** /circuitBreaker/index: the company's smart circuit breakers (spec §2; issue #12). */
export default function BreakerListPage() {
  const { t } = useTranslation();
  const { canEdit } = useBreakerRights();
  const state = useListQuery<BreakerListQuery>({});
  const [dialog, setDialog] = useState<{ open: boolean; breaker?: Breaker | undefined }>({ open: false });
  const [password, setPassword] = useState<{ uuid: string; password: string; broker: BrokerAddress }>();
  const list = useBreakers(state.query);
  const remove = useDeleteBreaker();
  const reset = useResetPassword();
  const nameOf = (b: Breaker) => b.alias || b.uuid;

  const columns: ListColumn<Breaker>[] = [
    {
      title: t('breaker.fields.alias'),
      key: 'alias',
      fixed: 'left',
      render: (_, b) => (
        <div className="fa-two-line">
          <Link to={`/circuitBreaker/${b.id}`} data-testid="breaker-open">
            {nameOf(b)}
          </Link>
          <Typography.Text type="secondary" data-testid="breaker-uuid">
            {b.uuid}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('breaker.fields.sort'), dataIndex: 'sort', key: 'sort' },
    { title: t('breaker.fields.linenum'), dataIndex: 'linenum', key: 'linenum' },
    {
      title: t('breaker.fields.online'),
      key: 'online',
      render: (_, b) => (
        <Space orientation="vertical" size={0}>
          <Badge
            status={b.online ? 'success' : 'default'}
            text={b.online ? t('breaker.online.on') : t('breaker.online.off')}
            data-testid="breaker-online"
            data-online={b.online ? '1' : '0'}
          />
          {!b.online && b.last_seen_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('breaker.lastSeen', { time: formatDateTime(b.last_seen_at) })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('breaker.fields.power'),
      key: 'power',
      render: (_, b) => <span data-testid="breaker-power">{b.online ? formatPower(b.power) : '—'}</span>,
    },
    {
      title: t('breaker.fields.alarms'),
      key: 'alarms',
      render: (_, b) =>
        b.alarms > 0 ? (
          <Tag color="red" data-testid="breaker-alarms">
            {t('breaker.activeAlarms', { count: b.alarms })}
          </Tag>
        ) : (
          <Typography.Text type="secondary">{t('breaker.noAlarms')}</Typography.Text>
        ),
    },
  ];

  const readOnly = () => !canEdit;
  const actions: ListAction<Breaker>[] = [
    { key: 'detail', label: t('breaker.actions.detail'), icon: <ThunderboltOutlined />, look: 'primary', to: (b) => `/circuitBreaker/${b.id}` },
    { key: 'edit', label: t('common.actions.edit'), icon: <EditOutlined />, inMenu: true, hidden: readOnly, run: (b) => setDialog({ open: true, breaker: b }) },
    {
      key: 'password',
      label: t('breaker.actions.resetPassword'),
      icon: <KeyOutlined />,
      inMenu: true,
      hidden: readOnly,
      confirm: (b) => ({ title: t('breaker.password.resetConfirm', { name: nameOf(b) }), content: t('breaker.password.resetHint') }),
      run: async (b) => {
        const r = await reset.mutateAsync(b.id);
        setPassword({ uuid: b.uuid, password: r.password, broker: r.broker });
      },
    },
    deleteAction<Breaker>(t, {
      inMenu: true,
      hidden: readOnly,
      confirm: (b) => ({ title: t('breaker.deleteConfirm', { name: nameOf(b) }), content: t('breaker.deleteHint') }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<Breaker, BreakerListQuery>
      title={t('route.circuitBreakerList')}
      {...connectedList<Breaker, BreakerListQuery>(t, 'breaker')}
      cardTitle="alias"
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      toolbar={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="breaker-create">
            {t('breaker.create')}
          </Button>
        )
      }
    >
      <BreakerDialog
        open={dialog.open}
        breaker={dialog.breaker}
        onClose={() => setDialog({ open: false })}
        onCreated={(b, pw, broker) => setPassword({ uuid: b.uuid, password: pw, broker })}
      />
      <PasswordDialog shown={password} onClose={() => setPassword(undefined)} />
    </ListPage>
  );
}
