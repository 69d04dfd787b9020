import { useState, type ReactNode } from 'react';
import { App, Button, Progress, Space, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RosterApplyBody, RosterItem } from '@faceadmin/shared';
import { BackTitle } from '../../../ui/BackTitle.tsx';
import { boundParam, type ListColumn, type ListPageProps } from '../../../ui/ListPage.tsx';
import { useIsMobile } from '../../../ui/useIsMobile.ts';
import { rosterApplyRows } from '../logic.ts';
import { ApplyControls, ApplyPlan, RowChoice, useRosterSelection, type RosterAction } from './RosterParts.tsx';

/** A row either review can apply: what its choices read, and the names they say. */
type Row = Parameters<typeof rosterApplyRows>[0][number] & Pick<RosterItem, 'name' | 'person_name'>;

/** What both reviews' list pages have the same: a terminal user a row, keyed by number and titled by name on a phone. */
type ReviewProps<R extends object, F extends object> = Pick<
  ListPageProps<R, F>,
  'title' | 'testId' | 'tableTestId' | 'rowKey' | 'cardTitle' | 'filters' | 'pageSizeOptions' | 'toolbar' | 'table'
>;

/**
 * The list page of a take-over review (issue #30), one terminal's or the whole site's, but its rows, columns and
 * notices: the title back to the terminals, the "show" filter over `show` options, the toolbar and the choosing. Device editors
 * read the terminals. Appliers also choose rows (kept across pages) by the table's check boxes, each row's own choice
 * in its column, the department new people go to, and confirm a plan that shows before `begin` starts the job. For the
 * others there are no check boxes and no choice column.
 */
export function useApplyReview<R extends Row, F extends { show?: unknown }>(o: {
  site: boolean;
  /** which rows the page shows, with how many each */
  show: { value: string; label: string }[];
  /** device editors: the read button */
  canRead: boolean;
  read: { run: () => void; busy: boolean };
  canApply: boolean;
  /** this page's rows */
  rows: R[];
  begin: (department_id: number, rows: RosterApplyBody['rows']) => Promise<unknown>;
  pending: boolean;
  /** a row that cannot be chosen (a user on its way off the terminal: the server refuses it too) */
  blocked?: (row: R) => boolean;
}): { props: ReviewProps<R, F>; choiceColumn: ListColumn<R>[] } {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const mobile = useIsMobile();
  // each row's own choice where the administrator changed what applying does with it
  const [choices, setChoices] = useState<Record<string, RosterAction>>({});
  const [department, setDepartment] = useState<number>();
  const selection = useRosterSelection(o.rows);
  const chosen = selection.chosen;
  const prefix = o.site ? 'takeover' : 'roster';
  const readButton = o.canRead && (
    <Button icon={<CloudDownloadOutlined />} loading={o.read.busy} onClick={o.read.run} data-testid={`${prefix}-read`}>
      {t(o.site ? 'device.takeover.read' : 'device.roster.read')}
    </Button>
  );
  const page = (toolbar: ReactNode, table?: ReviewProps<R, F>['table']): ReviewProps<R, F> => ({
    title: (
      <BackTitle to="/device/list" back={t('device.back')}>
        {t(o.site ? 'route.deviceTakeover' : 'route.deviceRoster')}
      </BackTitle>
    ),
    testId: `device-${prefix}-page`,
    tableTestId: `${prefix}-table`,
    rowKey: 'pin',
    cardTitle: 'name',
    filters: [
      {
        kind: 'select',
        param: boundParam<F>('show'),
        label: t('device.roster.show.label'),
        clearable: false,
        options: o.show,
        width: 260,
        testId: `${prefix}-show`,
      },
    ],
    pageSizeOptions: [20, 50, 100],
    toolbar,
    ...(table ? { table } : {}),
  });
  if (!o.canApply) return { props: page(readButton), choiceColumn: [] };

  const askApply = () => {
    if (!department || chosen.length === 0) return;
    const plan = rosterApplyRows(chosen, choices);
    modal.confirm({
      title: t(o.site ? 'device.takeover.apply.confirmTitle' : 'device.roster.apply.confirmTitle'),
      content: <ApplyPlan plan={plan} site={o.site} />,
      okText: t('device.roster.apply.ok'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await o.begin(department, plan.rows);
          selection.clear();
          setChoices({});
        } catch {
          // shown by the API client
        }
      },
    });
  };
  return {
    props: page(
      <Space wrap>
        {readButton}
        <ApplyControls
          prefix={prefix}
          pageRows={o.rows.length}
          pageChosen={selection.pageChosen}
          choosePage={selection.choosePage}
          showSelectPage={!mobile}
          department={department}
          setDepartment={setDepartment}
          chosen={chosen.length}
          pending={o.pending}
          onApply={askApply}
        />
      </Space>,
      {
        rowSelection: {
          selectedRowKeys: selection.keys,
          preserveSelectedRowKeys: true,
          hideSelectAll: true,
          getCheckboxProps: (r) => ({ 'aria-label': t('device.roster.apply.select', { name: r.name || r.pin }), disabled: o.blocked?.(r) ?? false }),
          onChange: selection.onChange,
        },
      },
    ),
    choiceColumn: [
      {
        title: t('device.roster.choice.title'),
        key: 'choice',
        render: (_, r) => <RowChoice row={r} site={o.site} value={choices[r.pin]} onChange={(a) => setChoices((prev) => ({ ...prev, [r.pin]: a }))} />,
      },
    ],
  };
}

/** How far a read has come, as a live status: what it says, a bar when the whole is known, and anything more below. */
export function ReadStatus({ site, text, percent, children }: { site: boolean; text: string; percent?: number | undefined; children?: ReactNode }) {
  const { t } = useTranslation();
  const prefix = site ? 'takeover' : 'roster';
  return (
    <div role="status" data-testid={`${prefix}-progress`}>
      <Typography.Text>{text}</Typography.Text>
      {percent !== undefined && <Progress percent={percent} status="active" aria-label={t(`device.${prefix}.progressLabel`)} />}
      {children}
    </div>
  );
}
