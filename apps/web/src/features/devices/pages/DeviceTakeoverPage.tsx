import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Space, Tag, Typography } from 'antd';
import { CameraOutlined } from '@ant-design/icons';

import { useTranslation } from 'react-i18next';
import type { RosterSiteItem, RosterSiteQuery } from '@faceadmin/shared';
import { useRightLevel } from '../../../lib/session.ts';
import { ListPage, useListQuery, type ListColumn } from '../../../ui/ListPage.tsx';
import { useCommandResults, useDeviceRights, useReadSite, useRosterSite, useRosterSiteApply, type SiteRead } from '../api.ts';
import { siteFace, siteNames } from '../logic.ts';
import { ApplyJob, MatchTag, RosterFace, FaceCheckTag, UserTags } from '../components/RosterParts.tsx';
import { ReadStatus, useApplyReview } from '../components/ApplyReview.tsx';

type Filters = Omit<RosterSiteQuery, 'page' | 'pageSize'>;

/** The terminals holding a number, one tag each; of several, the one whose face a new person takes says so. */
function TerminalTags({ row }: { row: RosterSiteItem }) {
  const { t } = useTranslation();
  const face = row.terminals.length > 1 ? siteFace(row) : undefined;
  return (
    <Space size={4} wrap>
      {row.terminals.map((x) => (
        <Tag key={x.id} style={{ whiteSpace: 'normal' }} data-testid="takeover-terminal" data-face={x === face ? 1 : 0}>
          {x === face ? (
            <>
              <CameraOutlined aria-hidden /> {t('device.takeover.faceFrom', { name: x.name })}
            </>
          ) : (
            x.name
          )}
        </Tag>
      ))}
    </Space>
  );
}

/**
 * /device/takeover — taking over a working site of several terminals (issue #30, "several terminals, one person"):
 * every number the company's terminals hold, once, with the terminals holding it and how it stands against the people.
 * Reading asks each terminal for what it holds and changes nothing; applying the chosen rows (device and people editors)
 * makes a number one person, from the terminal with the largest face, linked on every terminal holding it.
 */
export default function DeviceTakeoverPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { canEdit } = useDeviceRights();
  // applying writes people as well as the terminals' ledgers: both rights at edit level (the route asks both)
  const people = useRightLevel('person');
  const canApply = canEdit && people.canEdit;
  const apply = useRosterSiteApply();
  const state = useListQuery<Filters>({ show: 'all' }, 20);

  // The reads this page asked for, one a terminal, each followed until its terminal answers.
  const readSite = useReadSite();
  const [reads, setReads] = useState<SiteRead[]>([]);
  const followed = reads.filter((r) => r.command?.state === 'pending').map((r) => r.command!.command_id);
  const results = useCommandResults(followed);
  const outcomes = reads.map((r) => {
    const later = r.command && results[followed.indexOf(r.command.command_id)]?.data;
    return { ...r, command: later ?? r.command };
  });
  const answered = outcomes.filter((r) => !r.command || r.command.state !== 'pending').length;
  // an offline terminal's read runs when it calls in again: said so, not waited for
  const offline = outcomes.filter((r) => r.command?.state === 'pending' && r.command.offline);
  const reading = answered + offline.length < reads.length;
  const finished = reads.length > 0 && !reading;
  const failed = outcomes.filter((r) => r.error || r.command?.state === 'failure');

  // spec (issue #30): rows read so far, refreshed every 2 s until every terminal has answered
  const list = useRosterSite(state.query, reading);
  const rows = list.data?.items ?? [];
  const counts = list.data?.counts;
  const numbers = counts?.people ?? 0;
  const showCount = { all: numbers, across: counts?.across ?? 0, conflicts: counts?.conflicts ?? 0 };
  const review = useApplyReview<RosterSiteItem, Filters>({
    site: true,
    show: (['all', 'across', 'conflicts'] as const).map((v) => ({ value: v, label: t(`device.takeover.show.${v}`, { count: showCount[v] }) })),
    canRead: canEdit,
    read: { run: () => void read(), busy: readSite.isPending || reading },
    canApply,
    rows,
    begin: (department_id, chosen) => apply.begin.mutateAsync({ department_id, rows: chosen }),
    pending: apply.busy,
  });
  const queryClient = useQueryClient();
  // Once every terminal has answered, the rows and the devices' user counts are read once more: the last users may have
  // come with the answers.
  useEffect(() => {
    if (finished)
      void queryClient.invalidateQueries({
        queryKey: ['device'],
        predicate: (q) => ['rosterSite', 'roster', 'info', 'list'].includes(String(q.queryKey[1])),
      });
  }, [finished, queryClient]);

  const read = async () => {
    try {
      const sent = await readSite.mutateAsync();
      setReads(sent);
      if (sent.length === 0) message.info(t('device.takeover.noDevices'));
    } catch {
      // shown by the API client
    }
  };

  const columns: ListColumn<RosterSiteItem>[] = [
    {
      title: t('device.roster.face'),
      key: 'face',
      width: 64,
      render: (_, r) => <RosterFace row={{ face_url: siteFace(r)?.face_url ?? '', name: r.name, pin: r.pin }} />,
    },
    { title: t('device.roster.number'), dataIndex: 'pin', key: 'pin' },
    {
      title: t('device.roster.name'),
      dataIndex: 'name',
      key: 'name',
      // a split row's names wrap within it: the choice column stays in view at 1440 px
      width: 260,
      render: (name: string, r) => (
        <Space size={4} wrap>
          <span>{name || '—'}</span>
          <UserTags row={r} />
          {r.split && (
            <Tag color="#ad4e00" style={{ whiteSpace: 'normal' }} data-testid="takeover-split">
              {t('device.takeover.split', { names: siteNames(r.terminals) })}
            </Tag>
          )}
          {r.twins.length > 0 && (
            <Tag color="#ad4e00" style={{ whiteSpace: 'normal' }} data-testid="takeover-twins">
              {t('device.takeover.twins', { numbers: r.twins.join(', ') })}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('device.takeover.terminals'), key: 'terminals', width: 240, render: (_, r) => <TerminalTags row={r} /> },
    {
      title: t('device.roster.match.title'),
      key: 'match',
      render: (_, r) => (
        <Space size={4} wrap>
          <MatchTag row={r} />
          <FaceCheckTag face={siteFace(r)} />
          {r.managed && <Tag data-testid="roster-managed">{t('device.roster.managed')}</Tag>}
        </Space>
      ),
    },
    ...review.choiceColumn,
  ];

  return (
    <ListPage<RosterSiteItem, Filters>
      {...review.props}
      columns={columns}
      state={state}
      list={list}
      empty={t(numbers > 0 ? 'device.takeover.emptyShown' : 'device.takeover.empty')}
      header={<Typography.Paragraph data-testid="takeover-intro">{t('device.takeover.intro')}</Typography.Paragraph>}
      notice={
        <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 12 }}>
          {reading && (
            <ReadStatus
              site
              text={t('device.takeover.progress', {
                answered,
                terminals: t('device.takeover.count.terminals', { count: reads.length }),
                numbers: t('device.takeover.count.numbers', { count: numbers }),
              })}
              percent={Math.floor((answered * 100) / reads.length)}
            >
              <Typography.Text style={{ overflowWrap: 'anywhere' }} data-testid="takeover-waiting">
                {t('device.takeover.waiting', {
                  names: outcomes
                    .filter((r) => r.command?.state === 'pending' && !r.command.offline)
                    .map((r) => r.device.name)
                    .join(', '),
                })}
              </Typography.Text>
            </ReadStatus>
          )}
          {failed.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={t('device.takeover.failedTitle')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 20, overflowWrap: 'anywhere' }}>
                  {failed.map((r) => (
                    <li key={r.device.id}>
                      {t('device.takeover.failed', { name: r.device.name, reason: r.error || r.command?.message || String(r.command?.code ?? '') })}
                    </li>
                  ))}
                </ul>
              }
              data-testid="takeover-failed"
            />
          )}
          {offline.length > 0 && (
            <Alert
              type="info"
              showIcon
              title={t('device.takeover.offline', { names: offline.map((r) => r.device.name).join(', ') })}
              data-testid="takeover-offline"
            />
          )}
          {finished && failed.length === 0 && (
            <Alert
              type="success"
              showIcon
              title={t('device.takeover.done', { terminals: t('device.takeover.count.terminals', { count: answered }) })}
              data-testid="takeover-done"
            />
          )}
          <ApplyJob job={apply.job} site onClose={apply.clear} />
          {counts && numbers > 0 && (
            <Typography.Text data-testid="takeover-summary">
              {t('device.takeover.summary', {
                numbers: t('device.takeover.count.numbers', { count: numbers }),
                terminals: t('device.takeover.count.terminals', { count: counts.terminals }),
                across: counts.across,
                conflict: counts.conflict,
                split: counts.split,
                twin: counts.twin,
              })}{' '}
              {t('device.roster.counts', counts)}
              {(counts.faceRefused > 0 || counts.faceUnchecked > 0) && ` ${t('device.roster.faceCounts', counts)}`}
            </Typography.Text>
          )}
        </Space>
      }
    />
  );
}
