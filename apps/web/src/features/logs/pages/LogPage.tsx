import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogItem, LogListQuery } from '@faceadmin/shared';
import { ListPage, useListQuery } from '../../../ui/ListPage.tsx';
import { useLogModules, useLogs } from '../api.ts';
import { logColumns } from '../columns.ts';
import { moduleLabel } from '../moduleLabel.ts';

/** /system/log: operation log with module, keyword and date filters (right `log`). */
export default function LogPage() {
  const { t } = useTranslation();
  const state = useListQuery<LogListQuery>({}, 20);
  const logs = useLogs(state.query);
  const modules = useLogModules();

  return (
    <ListPage<LogItem, LogListQuery>
      title={t('route.log')}
      testId="log-page"
      tableTestId="log-table"
      cardTitle="description"
      columns={logColumns(t)}
      state={state}
      list={logs}
      filters={[
        {
          kind: 'select',
          param: 'module',
          placeholder: t('log.fields.module'),
          width: 180,
          loading: modules.isPending,
          options: (modules.data ?? []).map((m) => ({ value: m, label: moduleLabel(t, m) })),
          testId: 'log-module-filter',
        },
        { kind: 'keyword', param: 'keyword', placeholder: t('log.keyword'), testId: 'log-keyword' },
        { kind: 'dayRange', from: 'from', to: 'to', testId: 'log-range' },
      ]}
      table={{
        expandable: {
          rowExpandable: (row) => row.data !== null && row.data !== undefined && row.data !== '',
          expandedRowRender: (row) => (
            <Typography.Paragraph style={{ margin: 0 }}>
              <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{JSON.stringify(row.data, null, 2)}</pre>
            </Typography.Paragraph>
          ),
        },
      }}
    />
  );
}
