import { pagination, type PagedQuery } from '../../../ui/paging.ts';
import { useState } from 'react';
import { Card, DatePicker, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogItem, LogListQuery } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { KeywordSearch } from '../../../ui/KeywordSearch.tsx';
import { useLogModules, useLogs } from '../api.ts';
import { logColumns } from '../columns.ts';
import { moduleLabel } from '../moduleLabel.ts';

/** /system/log: operation log with module, keyword and date filters (right `log`). */
export default function LogPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<PagedQuery<LogListQuery>>({ page: 1, pageSize: 20 });
  const logs = useLogs(query);
  const modules = useLogModules();

  return (
    <Card title={t('route.log')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          placeholder={t('log.fields.module')}
          style={{ width: 180 }}
          data-testid="log-module-filter"
          loading={modules.isPending}
          options={(modules.data ?? []).map((m) => ({ value: m, label: moduleLabel(t, m) }))}
          onChange={(module?: string) => setQuery((q) => ({ ...q, page: 1, module }))}
        />
        <KeywordSearch placeholder={t('log.keyword')} width={240} onSearch={(keyword) => setQuery((q) => ({ ...q, page: 1, keyword }))} />
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
      <DataTable<LogItem>
        rowKey="id"
        loading={logs.isFetching}
        error={logs.error}
        onRetry={logs.refetch}
        cardTitle="description"
        data-testid="log-table"
        dataSource={logs.data?.items ?? []}
        columns={logColumns(t)}
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
