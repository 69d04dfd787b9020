import { useState } from 'react';
import { App, Button, Card, Popconfirm, Space, Tag, type TableProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Rule } from '@faceadmin/shared';
import { DataTable } from '../../../ui/DataTable.tsx';
import { DateTime } from '../../../ui/DateTime.tsx';
import { useDeleteRule, useRules } from '../api.ts';
import { RuleDrawer } from '../components/RuleDrawer.tsx';
import { crossesMidnight, hm } from '../logic.ts';

/** /attendance/rule: the company's attendance rules (right `attendance`). */
export default function RuleListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useRules();
  const remove = useDeleteRule();
  const [drawer, setDrawer] = useState<{ open: boolean; rule?: Rule | undefined }>({ open: false });

  const columns: TableProps<Rule>['columns'] = [
    { title: t('att.rule.fields.name'), dataIndex: 'name', key: 'name' },
    { title: t('att.rule.fields.mode'), dataIndex: 'mode', key: 'mode', render: (m: Rule['mode']) => <Tag>{t(`att.mode.${m}`)}</Tag> },
    {
      title: t('att.rule.sections.shifts'),
      key: 'shifts',
      render: (_, r) =>
        r.mode === 'free' ? (
          t('att.rule.freeSummary', { boundary: r.day_boundary, required: hm(r.required_min) })
        ) : (
          <Space size={[4, 4]} wrap>
            {r.shifts.map((s) => (
              <Tag key={s.id}>
                {s.name} {s.start}–{s.end}
                {crossesMidnight(s.start, s.end) ? ` (${t('att.rule.nextDay')})` : ''}
              </Tag>
            ))}
          </Space>
        ),
    },
    { title: t('att.rule.fields.model'), dataIndex: 'model', key: 'model', render: (m: Rule['model']) => t(`att.model.${m}`) },
    {
      title: t('att.rule.sections.members'),
      key: 'members',
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.departments.map((d) => (
            <Tag key={`d${d.id}`} color="blue">
              {d.name}
            </Tag>
          ))}
          {r.persons.slice(0, 5).map((p) => (
            <Tag key={`p${p.id}`}>{p.name}</Tag>
          ))}
          {r.persons.length > 5 ? <Tag>+{r.persons.length - 5}</Tag> : null}
          <span data-testid="rule-member-count">{t('common.count.people', { count: r.member_count })}</span>
        </Space>
      ),
    },
    { title: t('att.rule.fields.updated'), dataIndex: 'updated_at', key: 'updated_at', render: (v: string) => <DateTime value={v} /> },
    {
      title: t('common.actions.title'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) => (
        <Space>
          <Button size="small" onClick={() => setDrawer({ open: true, rule: r })} data-testid="rule-edit">
            {t('common.actions.edit')}
          </Button>
          <Popconfirm
            title={t('att.rule.deleteConfirm', { name: r.name })}
            okText={t('common.actions.ok')}
            cancelText={t('common.actions.cancel')}
            onConfirm={async () => {
              await remove.mutateAsync(r.id);
              message.success(t('common.deleted'));
            }}
          >
            <Button size="small" danger data-testid="rule-delete">
              {t('common.actions.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('route.attendanceRule')}
      data-testid="rule-list-page"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ open: true })} data-testid="rule-create">
          {t('att.rule.create')}
        </Button>
      }
    >
      <DataTable<Rule>
        rowKey="id"
        loading={list.isLoading}
        error={list.error}
        onRetry={list.refetch}
        retrying={list.isFetching}
        dataSource={list.data?.items ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={false}
        data-testid="rule-table"
      />
      <RuleDrawer open={drawer.open} rule={drawer.rule} onClose={() => setDrawer({ open: false })} />
    </Card>
  );
}
