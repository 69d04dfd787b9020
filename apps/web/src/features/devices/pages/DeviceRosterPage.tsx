import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Descriptions, Space, Tag, theme, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { type RosterItem, type RosterQuery } from '@faceadmin/shared';
import { useRightLevel } from '../../../lib/session.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { useCommandResult, useDevice, useDeviceCommand, useDeviceRights, useRoster, useRosterApply, useRosterRemove } from '../api.ts';
import { OnlineBadge, UserCount } from '../components/DeviceStatus.tsx';
import { rosterValidity } from '../logic.ts';
import { ApplyJob, FaceCheckTag, MatchTag, RosterFace, UserTags } from '../components/RosterParts.tsx';
import { ReadStatus, useApplyReview } from '../components/ApplyReview.tsx';
import { DeviceNotFound, deviceUnknown } from '../components/DeviceNotFound.tsx';

/**
 * /device/roster/:id — taking over a working site (issue #30), its first step: read what the terminal holds and see
 * each user beside the people here. Reading changes nothing, on the terminal or in People. Applying the chosen rows
 * (device and people editors only) creates the new users as people in a department and links the same persons; a
 * number taken by another name or a same-name person is left on the terminal.
 */
export default function DeviceRosterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const id = Number(useParams().id);
  const { canEdit } = useDeviceRights();
  // applying writes people as well as the terminal's ledger: both rights at edit level (the route asks both)
  const people = useRightLevel('person');
  const canApply = canEdit && people.canEdit;
  const apply = useRosterApply(id);
  const remove = useRosterRemove();
  const { token } = theme.useToken();
  // a message about users enrolled at the terminal opens the page on those not managed (?show=unmanaged)
  const [search] = useSearchParams();
  const state = useListQuery<Omit<RosterQuery, 'page' | 'pageSize' | 'id'>>({ show: search.get('show') === 'unmanaged' ? 'unmanaged' : 'all' }, 20);
  // the read this page asked for: followed until the terminal answers (0: none yet)
  const [commandId, setCommandId] = useState(0);
  const command = useDeviceCommand();
  const result = useCommandResult(commandId);
  const reading = commandId > 0 && (result.data?.state ?? 'pending') === 'pending';
  const device = useDevice(id, reading ? 2000 : undefined);
  // spec (issue #30): rows read so far, refreshed every 2 s until the read is over
  const list = useRoster({ ...state.query, id }, reading);
  const rows = list.data?.items ?? [];
  // the whole roster (whichever users the page shows)
  const whole = list.data?.counts;
  const total = whole ? whole.matched + whole.conflict + whole.byName + whole.new : (list.data?.total ?? 0);
  const review = useApplyReview<RosterItem, Omit<RosterQuery, 'page' | 'pageSize' | 'id'>>({
    site: false,
    show: (['all', 'unmanaged'] as const).map((v) => ({
      value: v,
      label: t(`device.roster.show.${v}`, { count: v === 'all' ? total : (whole?.unmanaged ?? 0) }),
    })),
    canRead: canEdit,
    read: { run: () => void read(), busy: command.isPending || reading },
    canApply,
    rows,
    begin: (department_id, chosen) => apply.begin.mutateAsync({ id, department_id, rows: chosen }),
    pending: apply.busy,
    blocked: (r) => r.removing,
  });
  const queryClient = useQueryClient();
  const finished = commandId > 0 && result.data !== undefined && result.data.state !== 'pending';
  // Once the terminal has answered, the rows and its user count are read once more: the last ones may have come with the answer.
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: ['device'], predicate: (q) => q.queryKey[1] === 'roster' || q.queryKey[1] === 'info' });
  }, [finished, queryClient]);

  if (deviceUnknown(id, device.error)) return <DeviceNotFound />;
  if (device.error) return <ErrorState error={device.error} onRetry={device.refetch} retrying={device.isFetching} />;

  const read = async () => {
    try {
      const r = await command.mutateAsync({ id, kind: 'readRoster' });
      setCommandId(r.command_id);
      if (r.state === 'failure') message.error(t('device.result.failure', { reason: r.message || String(r.code ?? '') }));
    } catch {
      // shown by the API client
    }
  };

  const d = device.data;
  const readAt = (list.data?.items ?? []).reduce((latest, r) => (r.read_at > latest ? r.read_at : latest), '');
  const expected = d?.user_count_at ? d.user_count : 0;
  const outcome = commandId > 0 ? result.data : undefined;

  const columns: ListColumn<RosterItem>[] = [
    { title: t('device.roster.face'), key: 'face', width: 64, render: (_, r) => <RosterFace row={r} /> },
    { title: t('device.roster.number'), dataIndex: 'pin', key: 'pin' },
    {
      title: t('device.roster.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, r) => (
        <Space size={4} wrap>
          <span>{name || '—'}</span>
          <UserTags row={r} />
        </Space>
      ),
    },
    { title: t('device.roster.card'), dataIndex: 'card', key: 'card', render: (card: string) => card || '—' },
    {
      title: t('device.roster.validity'),
      key: 'validity',
      render: (_, r) => {
        const v = rosterValidity(r.valid_from, r.valid_to);
        return v.kind === 'always' ? t('device.roster.always') : t(`device.roster.${v.kind}`, v);
      },
    },
    {
      title: t('device.roster.match.title'),
      key: 'match',
      render: (_, r) => (
        <Space size={4} wrap>
          <MatchTag row={r} />
          <FaceCheckTag face={r} />
          {r.managed && <Tag data-testid="roster-managed">{t('device.roster.managed')}</Tag>}
          {r.removing && <Tag data-testid="roster-removing">{t('device.roster.removing')}</Tag>}
        </Space>
      ),
    },
    ...review.choiceColumn,
  ];
  const removeFrom = async (r: RosterItem) => {
    try {
      const done = await remove.mutateAsync({ id, pins: [r.pin] });
      if (done.refused[0]) message.error(t('device.roster.remove.refused', { reason: done.refused[0].reason }));
      else message.success(t('device.roster.remove.done'));
    } catch {
      // shown by the API client
    }
  };
  // "On the terminal, not managed": a user no person here stands for may be taken off the terminal (it asks first)
  const actions: ListAction<RosterItem>[] = [
    {
      key: 'remove',
      label: t('device.roster.remove.action'),
      icon: <DeleteOutlined />,
      danger: true,
      testId: (r) => `roster-remove-${r.pin}`,
      hidden: (r) => !canEdit || r.managed,
      disabled: (r) => r.removing,
      confirm: (r) => ({
        title: t('device.roster.remove.confirmTitle', { name: r.name || r.pin, device: d?.name ?? '' }),
        content: <span style={{ display: 'block', maxWidth: 320 }}>{t('device.roster.remove.confirm')}</span>,
        ok: t('device.roster.remove.ok'),
      }),
      run: removeFrom,
    },
  ];

  return (
    <ListPage<RosterItem, Omit<RosterQuery, 'page' | 'pageSize' | 'id'>>
      {...review.props}
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      empty={t(state.query.show === 'unmanaged' && total > 0 ? 'device.roster.emptyUnmanaged' : 'device.roster.empty')}
      header={
        <>
          <Typography.Paragraph data-testid="roster-intro">
            {t('device.roster.intro')}{' '}
            {/* Several terminals holding the same people are best taken over together (one person a number). The theme's
                readable shade, underlined: antd's link blue (#1677ff) is 4.1:1 on white, short of WCAG AA's 4.5:1. */}
            <Link to="/device/takeover" style={{ color: token.colorPrimary, textDecoration: 'underline' }} data-testid="roster-site-link">
              {t('device.takeover.link')}
            </Link>
          </Typography.Paragraph>
          {d && (
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              style={{ marginBottom: 12 }}
              // antd's labels are its tertiary text (3.4:1 on white); WCAG AA asks 4.5:1
              styles={{ label: { color: token.colorTextSecondary } }}
              data-testid="device-header"
            >
              <Descriptions.Item label={t('device.fields.name')}>
                <strong>{d.name}</strong>&nbsp;{d.serial}
              </Descriptions.Item>
              <Descriptions.Item label={t('device.fields.online')}>
                {/* without the last-seen line: antd's secondary text is 3.4:1, and reading the terminal is the news here */}
                <OnlineBadge device={{ online: d.online }} />
              </Descriptions.Item>
              <Descriptions.Item label={t('device.fields.users')}>
                <UserCount device={d} />
              </Descriptions.Item>
            </Descriptions>
          )}
        </>
      }
      notice={
        <Space orientation="vertical" size={8} style={{ width: '100%', marginBottom: 12 }}>
          {reading && (
            <ReadStatus
              site={false}
              text={expected > 0 ? t('device.roster.progress', { read: total, count: expected }) : t('device.roster.progressUnknown', { read: total })}
              percent={expected > 0 ? Math.min(100, Math.floor((total * 100) / expected)) : undefined}
            />
          )}
          {outcome?.state === 'failure' && (
            <Alert
              type="error"
              showIcon
              title={t('device.roster.failed', { reason: outcome.message || String(outcome.code ?? '') })}
              data-testid="roster-failed"
            />
          )}
          {outcome?.state === 'success' && <Alert type="success" showIcon title={t('device.roster.done')} data-testid="roster-done" />}
          <ApplyJob job={apply.job} onClose={apply.clear} />
          {total > 0 && (
            <Typography.Text data-testid="roster-summary">
              {t('device.roster.summary', { count: total, time: formatDateTime(readAt) })}
              {whole && ` ${t('device.roster.counts', whole)}`}
              {whole && (whole.faceRefused > 0 || whole.faceUnchecked > 0) && ` ${t('device.roster.faceCounts', whole)}`}
            </Typography.Text>
          )}
        </Space>
      }
    />
  );
}
