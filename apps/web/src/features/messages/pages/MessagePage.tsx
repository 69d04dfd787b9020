import { useState } from 'react';
import { Badge, Button, Card, Space, Switch, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageItem, MessageListQuery } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import type { PagedQuery } from '../../../ui/paging.ts';
import { useMarkRead, useMessages } from '../api.ts';

// A table rather than antd List: List is deprecated in antd 6.6 and its successor (Listy) is a virtual list
// without pagination.
/** /message/message: notifications with unread markers; mark one or all as read. */
export default function MessagePage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<MessageListQuery>>({ page: 1, pageSize: 10 });
  const messages = useMessages(query);
  const markRead = useMarkRead();

  const columns: TableProps<MessageItem>['columns'] = [
    {
      key: 'state',
      width: 32,
      render: (_, m) => <Badge status={m.read ? 'default' : 'error'} aria-label={m.read ? undefined : t('message.unread')} />,
    },
    {
      title: t('message.fields.title'),
      dataIndex: 'title',
      render: (_, m) => (
        <div>
          <Space>
            <Typography.Text strong={!m.read}>{m.title}</Typography.Text>
            {!m.read && <Typography.Text type="danger">{t('message.unread')}</Typography.Text>}
          </Space>
          <div>
            <Typography.Text type="secondary">{m.content}</Typography.Text>
          </div>
        </div>
      ),
    },
    { title: t('message.fields.date'), dataIndex: 'created_at', width: 180, render: (v: string) => formatDateTime(v) },
    {
      title: t('common.actions.title'),
      key: 'actions',
      width: 140,
      render: (_, m) => (m.read ? null : <Typography.Link onClick={() => markRead.mutate({ ids: [m.id] })}>{t('message.markRead')}</Typography.Link>),
    },
  ];

  return (
    <Card
      title={t('route.message')}
      extra={
        <Space>
          <Space>
            <span>{t('message.unreadOnly')}</span>
            <Switch size="small" checked={query.unread === 1} onChange={(on) => setQuery((q) => ({ ...q, page: 1, unread: on ? 1 : undefined }))} />
          </Space>
          <Button onClick={() => markRead.mutate({ all: true })} loading={markRead.isPending && markRead.variables?.all}>
            {t('message.markAllRead')}
          </Button>
        </Space>
      }
    >
      <DataTable<MessageItem>
        rowKey="id"
        loading={messages.isFetching}
        error={messages.error}
        onRetry={messages.refetch}
        cardTitle="title"
        data-testid="message-table"
        dataSource={messages.data?.items ?? []}
        columns={columns}
        locale={{ emptyText: t('message.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: messages.data?.total ?? 0,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
        }}
      />
    </Card>
  );
}
