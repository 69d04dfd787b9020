import { Badge, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageItem, MessageListQuery } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { useMarkRead, useMessages } from '../api.ts';

// A table rather than antd List: List is deprecated in antd 6.6 and its successor (Listy) is a virtual list
// without pagination.
/** /message/message: notifications with unread markers; mark one or all as read. */
export default function MessagePage() {
  const { t } = useTranslation();
  const state = useListQuery<MessageListQuery>({});
  const messages = useMessages(state.query);
  const markRead = useMarkRead();

  const columns: ListColumn<MessageItem>[] = [
    {
      key: 'state',
      width: 32,
      render: (_, m) =>
        // the dot is a picture of "unread" (a span may not carry a name of its own)
        m.read ? (
          <Badge status="default" />
        ) : (
          <span role="img" aria-label={t('message.unread')}>
            <Badge status="error" />
          </span>
        ),
    },
    {
      title: t('message.fields.title'),
      dataIndex: 'title',
      key: 'title',
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
    { title: t('message.fields.date'), dataIndex: 'created_at', key: 'created_at', width: 180, render: (v: string) => formatDateTime(v) },
  ];
  const actions: ListAction<MessageItem>[] = [
    // where the message is acted on (users enrolled at a terminal: its take-over page)
    { key: 'open', label: t('message.open'), hidden: (m) => !m.link, to: (m) => m.link, testId: 'message-open' },
    { key: 'read', label: t('message.markRead'), hidden: (m) => m.read, run: (m) => markRead.mutate({ ids: [m.id] }), testId: 'message-mark-read' },
  ];

  return (
    <ListPage<MessageItem, MessageListQuery>
      title={t('route.message')}
      testId="message-page"
      tableTestId="message-table"
      cardTitle="title"
      extra={
        <Button onClick={() => markRead.mutate({ all: true })} loading={markRead.isPending && markRead.variables?.all} data-testid="message-mark-all">
          {t('message.markAllRead')}
        </Button>
      }
      columns={columns}
      actions={actions}
      state={state}
      list={messages}
      empty={t('message.empty')}
      filters={[{ kind: 'check', param: 'unread', label: t('message.unreadOnly'), testId: 'message-unread' }]}
    />
  );
}
