import { useState } from 'react';
import { Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ClientErrorItem } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { pagination } from '../../../ui/paging.ts';
import { useClientErrors, useDeleteClientErrors } from '../api.ts';

const pre = { margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 } as const;

/** /system/clientErrors: what consoles reported (spec §8), deduplicated; main administrators only. */
export default function ClientErrorsPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState({ page: 1, pageSize: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const list = useClientErrors(query);
  const remove = useDeleteClientErrors();
  const removeIds = (ids: number[]) =>
    remove.mutateAsync(ids).then(
      () => setSelected((s) => s.filter((id) => !ids.includes(id))),
      () => {},
    );

  const columns: ColumnsType<ClientErrorItem> = [
    { title: t('clientError.fields.lastSeen'), dataIndex: 'last_seen', width: 170, render: (v: string) => formatDateTime(v) },
    { title: t('clientError.fields.count'), dataIndex: 'count', width: 80, align: 'right' },
    {
      title: t('clientError.fields.message'),
      dataIndex: 'message',
      render: (v: string, row) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <Tag>{t(`clientError.kinds.${row.kind}`)}</Tag>
            <Typography.Text style={{ wordBreak: 'break-all' }}>{v}</Typography.Text>
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
            {row.url}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('clientError.fields.firstSeen'), dataIndex: 'first_seen', width: 170, render: (v: string) => formatDateTime(v) },
    { title: t('clientError.fields.release'), dataIndex: 'release', width: 140 },
    {
      title: t('common.actions.title'),
      key: 'actions',
      width: 90,
      render: (_: unknown, row) => (
        <Popconfirm title={t('clientError.deleteConfirm', { count: 1 })} onConfirm={() => removeIds([row.id])}>
          <Button type="link" danger size="small" data-testid={`client-error-delete-${row.id}`}>
            {t('common.actions.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card
      title={t('route.clientErrors')}
      extra={
        <Popconfirm title={t('clientError.deleteConfirm', { count: selected.length })} disabled={!selected.length} onConfirm={() => removeIds(selected)}>
          <Button danger disabled={!selected.length} loading={remove.isPending} data-testid="client-error-delete-selected">
            {t('clientError.deleteSelected', { count: selected.length })}
          </Button>
        </Popconfirm>
      }
    >
      <Typography.Paragraph type="secondary">{t('clientError.intro')}</Typography.Paragraph>
      <DataTable<ClientErrorItem>
        rowKey="id"
        loading={list.isFetching}
        error={list.error}
        onRetry={list.refetch}
        cardTitle="message"
        data-testid="client-error-table"
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        expandable={{
          expandedRowRender: (row) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {row.stack && (
                <>
                  <Typography.Text strong>{t('clientError.fields.stack')}</Typography.Text>
                  <pre style={pre}>{row.stack}</pre>
                </>
              )}
              {row.component_stack && (
                <>
                  <Typography.Text strong>{t('clientError.fields.componentStack')}</Typography.Text>
                  <pre style={pre}>{row.component_stack}</pre>
                </>
              )}
              <Typography.Text type="secondary">
                {t('clientError.fields.userAgent')}: {row.user_agent || '—'}
              </Typography.Text>
            </Space>
          ),
        }}
        pagination={pagination(query, setQuery, list.data?.total, t, [10, 20, 50, 100])}
      />
    </Card>
  );
}
