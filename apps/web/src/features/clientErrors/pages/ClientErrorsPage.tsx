import { useState } from 'react';
import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ClientErrorItem } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { useClientErrors, useDeleteClientErrors } from '../api.ts';

const pre = { margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 } as const;

/** /system/clientErrors: what consoles reported (spec §8), deduplicated; main administrators only. */
export default function ClientErrorsPage() {
  const { t } = useTranslation();
  const state = useListQuery({}, 20);
  const [selected, setSelected] = useState<number[]>([]);
  const list = useClientErrors(state.query);
  const remove = useDeleteClientErrors();
  const removeIds = (ids: number[]) =>
    remove.mutateAsync(ids).then(
      () => setSelected((s) => s.filter((id) => !ids.includes(id))),
      () => {},
    );

  const columns: ListColumn<ClientErrorItem>[] = [
    { title: t('clientError.fields.lastSeen'), dataIndex: 'last_seen', key: 'last_seen', width: 170, render: (v: string) => formatDateTime(v) },
    { title: t('clientError.fields.count'), dataIndex: 'count', key: 'count', width: 80, align: 'right' },
    {
      title: t('clientError.fields.message'),
      dataIndex: 'message',
      key: 'message',
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
    { title: t('clientError.fields.firstSeen'), dataIndex: 'first_seen', key: 'first_seen', width: 170, render: (v: string) => formatDateTime(v) },
    { title: t('clientError.fields.release'), dataIndex: 'release', key: 'release', width: 140 },
  ];
  const actions: ListAction<ClientErrorItem>[] = [
    {
      key: 'delete',
      label: t('common.actions.delete'),
      danger: true,
      confirm: () => ({ title: t('clientError.deleteConfirm', { count: 1 }) }),
      run: (row) => removeIds([row.id]),
      testId: (row) => `client-error-delete-${row.id}`,
    },
  ];

  return (
    <ListPage<ClientErrorItem, object>
      title={t('route.clientErrors')}
      testId="client-errors-page"
      tableTestId="client-error-table"
      cardTitle="message"
      extra={
        <Popconfirm title={t('clientError.deleteConfirm', { count: selected.length })} disabled={!selected.length} onConfirm={() => removeIds(selected)}>
          <Button danger disabled={!selected.length} loading={remove.isPending} data-testid="client-error-delete-selected">
            {t('clientError.deleteSelected', { count: selected.length })}
          </Button>
        </Popconfirm>
      }
      notice={<Typography.Paragraph type="secondary">{t('clientError.intro')}</Typography.Paragraph>}
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      table={{
        rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) },
        expandable: {
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
        },
      }}
    />
  );
}
