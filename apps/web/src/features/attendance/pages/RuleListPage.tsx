import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Rule } from '@faceadmin/shared';
import { ListPage, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
import { DateTime } from '../../../ui/DateTime.tsx';
import { useDeleteRule, useRules } from '../api.ts';
import { RuleDrawer } from '../components/RuleDrawer.tsx';
import { crossesMidnight, hm } from '../logic.ts';

/** /attendance/rule: the company's attendance rules (right `attendance`). */
export default function RuleListPage() {
  const { t } = useTranslation();
  const list = useRules();
  const remove = useDeleteRule();
  const [drawer, setDrawer] = useState<{ open: boolean; rule?: Rule | undefined }>({ open: false });

  const columns: ListColumn<Rule>[] = [
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
  ];
  const actions: ListAction<Rule>[] = [
    { key: 'edit', label: t('common.actions.edit'), run: (r) => setDrawer({ open: true, rule: r }), testId: 'rule-edit' },
    deleteAction<Rule>(t, {
      testId: 'rule-delete',
      confirm: (r) => ({ title: t('att.rule.deleteConfirm', { name: r.name }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<Rule, object>
      title={t('route.attendanceRule')}
      testId="rule-list-page"
      tableTestId="rule-table"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ open: true })} data-testid="rule-create">
          {t('att.rule.create')}
        </Button>
      }
      columns={columns}
      actions={actions}
      list={list}
      paged={false}
    >
      <RuleDrawer open={drawer.open} rule={drawer.rule} onClose={() => setDrawer({ open: false })} />
    </ListPage>
  );
}
