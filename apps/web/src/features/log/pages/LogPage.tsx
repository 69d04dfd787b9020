import { pagination } from '../../../ui/paging.ts';
import { useState } from 'react';
import { Card, DatePicker, Input, Select, Space, Table, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogItem } from '@faceadmin/shared';
import { formatDateTime } from '../../../ui/format.ts';
import { useLogModules, useLogs, type LogQuery } from '../api.ts';
import { moduleLabel } from '../moduleLabel.ts';

/** /system/log: operation log with module, keyword and date filters (right `log`). */
export default function LogPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<LogQuery>({ page: 1, pageSize: 20 });
  const logs = useLogs(query);
  const modules = useLogModules();

  const columns: TableProps<LogItem>['columns'] = [
    { title: t('log.fields.time'), dataIndex: 'created_at', width: 180, render: (v: string) => formatDateTime(v) },
    { title: t('log.fields.admin'), dataIndex: 'admin_name', width: 140 },
    { title: t('log.fields.module'), dataIndex: 'module', width: 140, render: (m: string) => moduleLabel(t, m) },
    { title: t('log.fields.description'), dataIndex: 'description' },
    { title: t('log.fields.ip'), dataIndex: 'ip', width: 140 },
  ];

  return (
    <Card title={t('route.log')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          placeholder={t('log.fields.module')}
          style={{ width: 180 }}
          loading={modules.isPending}
          options={(modules.data ?? []).map((m) => ({ value: m, label: moduleLabel(t, m) }))}
          onChange={(module?: string) => setQuery((q) => ({ ...q, page: 1, module }))}
        />
        <Input.Search
          allowClear
          placeholder={t('log.keyword')}
          style={{ width: 240 }}
          onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword: keyword.trim() || undefined }))}
        />
        <DatePicker.RangePicker
          onChange={(range) =>
            setQuery((q) => ({
              ...q,
              page: 1,
              from: range?.[0]?.format('YYYY-MM-DD'),
              to: range?.[1]?.format('YYYY-MM-DD'),
            }))
          }
        />
      </Space>
      <Table<LogItem>
        rowKey="id"
        loading={logs.isFetching}
        dataSource={logs.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        expandable={{
          rowExpandable: (row) => row.data !== null && row.data !== undefined && row.data !== '',
          expandedRowRender: (row) => (
            <Typography.Paragraph style={{ margin: 0 }}>
              <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{JSON.stringify(row.data, null, 2)}</pre>
            </Typography.Paragraph>
          ),
        }}
        pagination={pagination(query, setQuery, logs.data?.total, t, [10, 20, 50, 100])}
      />
    </Card>
  );
}
