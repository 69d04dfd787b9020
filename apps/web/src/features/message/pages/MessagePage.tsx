import { useState } from 'react';
import { Badge, Button, Card, List, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { useMarkRead, useMessages, type MessageQuery } from '../api.ts';

/** /message/message: notifications with unread markers; mark one or all as read. */
export default function MessagePage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<MessageQuery>({ page: 1, pageSize: 10 });
  const messages = useMessages(query);
  const markRead = useMarkRead();

  return (
    <Card
      title={t('route.message')}
      extra={
        <Space>
          <Space>
            <span>{t('message.unreadOnly')}</span>
            <Switch size="small" checked={Boolean(query.unread)} onChange={(unread) => setQuery((q) => ({ ...q, page: 1, unread }))} />
          </Space>
          <Button onClick={() => markRead.mutate({ all: true })} loading={markRead.isPending && markRead.variables?.all}>
            {t('message.markAllRead')}
          </Button>
        </Space>
      }
    >
      <List<MessageItem>
        loading={messages.isFetching}
        dataSource={messages.data?.items ?? []}
        locale={{ emptyText: t('message.empty') }}
        pagination={{
          current: query.page,
          pageSize: query.pageSize,
          total: messages.data?.total ?? 0,
          showTotal: (total) => t('common.total', { count: total }),
          onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
        }}
        renderItem={(m) => (
          <List.Item
            actions={
              m.read
                ? []
                : [
                    <Typography.Link key="read" onClick={() => markRead.mutate({ ids: [m.id] })}>
                      {t('message.markRead')}
                    </Typography.Link>,
                  ]
            }
          >
            <List.Item.Meta
              title={
                <Space>
                  <Badge status={m.read ? 'default' : 'error'} />
                  <Typography.Text strong={!m.read}>{m.title}</Typography.Text>
                  {!m.read && <Typography.Text type="danger">{t('message.unread')}</Typography.Text>}
                </Space>
              }
              description={
                <>
                  <div>{m.content}</div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(m.created_at)}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
