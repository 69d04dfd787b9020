import { useState, type Key } from 'react';
import { Alert, Avatar, Button, Checkbox, Select, Space, Tag, Typography } from 'antd';
import { CheckOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RosterApplied, RosterApplyBody, RosterApplyJob, RosterItem } from '@faceadmin/shared';
import { JobProgress } from '../../../ui/JobProgress.tsx';
import { DepartmentSelect } from '../../persons/components/DepartmentSelect.tsx';
import { rosterChoices, type rosterApplyRows } from '../logic.ts';

/**
 * The pieces both take-over reviews draw (issue #30): one terminal's (DeviceRosterPage: RosterItem rows) and the whole
 * site's (DeviceTakeoverPage: RosterSiteItem rows). Each takes the fields it reads, so either row fits.
 */

export type RosterAction = RosterApplyBody['rows'][number]['action'];
type Match = Pick<RosterItem, 'match' | 'person_name' | 'person_number'>;
/** What rosterChoices reads, and the names a choice's labels say. */
type ChoiceRow = Parameters<typeof rosterChoices>[0] & Pick<RosterItem, 'name' | 'person_name'>;

// Solid tags with white text: antd's light preset tags (green, orange) fall short of WCAG AA's 4.5:1 at 12 px.
const MATCH_COLOR: Record<RosterItem['match'], string> = { matched: '#237804', conflict: '#a8071a', byName: '#ad4e00', new: '#0958d9' };

const KIND_COLOR = { visitor: '#531dab', blackList: '#262626' } as const;

/** A user's standing on the terminal beside their name: a terminal administrator, a visitor or a blacklisted user. */
export function UserTags({ row }: { row: Pick<RosterItem, 'admin' | 'kind'> }) {
  const { t } = useTranslation();
  if (!row.admin && row.kind === 'normal') return null;
  return (
    <Space size={4} wrap>
      {row.admin && <Tag data-testid="roster-admin">{t('device.roster.admin')}</Tag>}
      {row.kind !== 'normal' && (
        <Tag color={KIND_COLOR[row.kind]} data-testid="roster-kind">
          {t(`device.roster.kind.${row.kind}`)}
        </Tag>
      )}
    </Space>
  );
}

/** A user's enrolment face as a terminal holds it (the image route takes the session's cookie), or a placeholder. */
export function RosterFace({ row }: { row: Pick<RosterItem, 'face_url' | 'name' | 'pin'> }) {
  const { t } = useTranslation();
  // the address that failed, so another terminal's face (a new read) is tried again
  const [broken, setBroken] = useState('');
  if (row.face_url && broken !== row.face_url)
    return (
      <img
        src={row.face_url}
        alt={t('device.roster.faceOf', { name: row.name || row.pin })}
        width={36}
        height={48}
        loading="lazy"
        onError={() => setBroken(row.face_url)}
        style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
        data-testid="roster-face"
      />
    );
  return (
    <span role="img" aria-label={t('device.roster.noFace')} data-testid="roster-no-face">
      <Avatar shape="square" size={36} icon={<UserOutlined aria-hidden />} />
    </span>
  );
}

/**
 * What the face check made of a terminal's face (issue #30): refused and why (such a face is not taken: the person is
 * made without it), or still to be checked (the check runs after the read, one face at a time). Nothing when it passes.
 */
export function FaceCheckTag({ face }: { face: Pick<RosterItem, 'face_refused' | 'face_checking'> | undefined }) {
  const { t } = useTranslation();
  if (face?.face_refused)
    return (
      <Tag color="#a8071a" style={{ whiteSpace: 'normal' }} data-testid="roster-face-refused">
        {t('device.roster.faceRefused', { reason: face.face_refused })}
      </Tag>
    );
  if (face?.face_checking) return <Tag data-testid="roster-face-checking">{t('device.roster.faceChecking')}</Tag>;
  return null;
}

/** How a row stands against the people here: the same person, a number taken, a same name, or new. */
export function MatchTag({ row }: { row: Match }) {
  const { t } = useTranslation();
  const text =
    row.match === 'conflict'
      ? t('device.roster.match.conflict', { name: row.person_name })
      : row.match === 'byName'
        ? t('device.roster.match.byName', { name: row.person_name, number: row.person_number })
        : t(`device.roster.match.${row.match}`);
  return (
    <Tag color={MATCH_COLOR[row.match]} data-testid="roster-match" data-match={row.match} style={{ whiteSpace: 'normal' }}>
      {text}
    </Tag>
  );
}

/**
 * What applying will do with one row: its choices in a box, or the one thing it can be (left on the terminal). `site`:
 * the whole site's review, where a row stays on every terminal holding it.
 */
export function RowChoice({
  row,
  value,
  onChange,
  site = false,
}: {
  row: ChoiceRow;
  value: RosterAction | undefined;
  onChange: (a: RosterAction) => void;
  site?: boolean;
}) {
  const { t } = useTranslation();
  const choices = rosterChoices(row);
  const where = site ? 'device.takeover.choice' : 'device.roster.choice';
  const label = (a: RosterAction) =>
    a === 'link'
      ? t('device.roster.choice.link', { name: row.person_name })
      : a === 'create'
        ? t('device.roster.choice.create')
        : t(choices.length === 1 ? `${where}.settle` : `${where}.skip`);
  if (choices.length === 1) return <span data-testid="roster-choice-fixed">{label(choices[0]!)}</span>;
  return (
    <Select<RosterAction>
      size="small"
      value={value && choices.includes(value) ? value : choices[0]}
      onChange={onChange}
      options={choices.map((a) => ({ value: a, label: label(a) }))}
      aria-label={t('device.roster.choice.label', { name: row.name || row.pin })}
      popupMatchSelectWidth={false}
      style={{ minWidth: 150, maxWidth: '100%' }}
      data-testid="roster-choice"
    />
  );
}

/** What applying answered: the counts, then the rows refused and the people created without a face, with why. */
export function AppliedResult({ applied, onClose, site = false }: { applied: RosterApplied; onClose: () => void; site?: boolean }) {
  const { t } = useTranslation();
  const lines = [
    ...applied.refused.map((r) => ({ key: `r${r.pin}`, text: t('device.roster.apply.refusedRow', { pin: r.pin, reason: r.reason }) })),
    ...applied.faceless.map((r) => ({ key: `f${r.pin}`, text: t('device.roster.apply.facelessRow', { pin: r.pin, reason: r.reason }) })),
    ...applied.photos.map((r) => ({ key: `p${r.pin}`, text: t('device.roster.apply.photoRow', { pin: r.pin, reason: r.reason }) })),
  ];
  return (
    <Alert
      type={applied.refused.length > 0 ? 'warning' : 'success'}
      showIcon
      closable={{ onClose, 'aria-label': t('device.roster.apply.close') }}
      title={<span data-testid="roster-applied-counts">{t(site ? 'device.takeover.apply.result' : 'device.roster.apply.result', applied)}</span>}
      description={
        lines.length > 0 && (
          <ul style={{ margin: 0, paddingInlineStart: 20, overflowWrap: 'anywhere' }} data-testid="roster-applied-rows">
            {lines.map((l) => (
              <li key={l.key}>{l.text}</li>
            ))}
          </ul>
        )
      }
      data-testid="roster-applied"
    />
  );
}

/**
 * An apply started on this page (useRosterApplying's job): its progress while it runs, why it stopped if it failed,
 * its result once done (AppliedResult).
 */
export function ApplyJob({ job, site = false, onClose }: { job: RosterApplyJob | undefined; site?: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  if (!job) return null;
  if (job.state === 'done' && job.result) return <AppliedResult applied={job.result} site={site} onClose={onClose} />;
  if (job.state === 'failed')
    return (
      <Alert
        type="error"
        showIcon
        closable={{ onClose, 'aria-label': t('device.roster.apply.close') }}
        title={t('device.roster.apply.failed', {
          reason: t(job.reason === 'interrupted' ? 'device.roster.apply.failedReasons.interrupted' : 'device.roster.apply.failedReasons.error'),
        })}
        data-testid="roster-apply-failed"
      />
    );
  return (
    <JobProgress
      done={job.done}
      total={job.total}
      label={t('device.roster.apply.progressLabel')}
      text={t('device.roster.apply.progress', { done: job.done, total: job.total })}
      testId="roster-apply-progress"
    />
  );
}

/** What the confirmation says applying will do (rosterApplyRows' counts), and that the rows left stay unmanaged. */
export function ApplyPlan({ plan, site = false }: { plan: ReturnType<typeof rosterApplyRows>; site?: boolean }) {
  const { t } = useTranslation();
  const counts = { create: plan.create, link: plan.link, skip: plan.skip };
  return (
    <div data-testid="roster-apply-confirm">
      <Typography.Paragraph>{t(site ? 'device.takeover.apply.confirm' : 'device.roster.apply.confirm', counts)}</Typography.Paragraph>
      {plan.skip > 0 && <Typography.Paragraph>{t(site ? 'device.takeover.unmanagedNote' : 'device.roster.unmanagedNote')}</Typography.Paragraph>}
    </div>
  );
}

/**
 * The rows chosen for applying, by number, kept across pages (`rows`: the page shown): what a table's or a phone's
 * card list's selection reports, the select-page box, and clearing after an apply.
 */
export function useRosterSelection<T extends { pin: string }>(rows: readonly T[]) {
  const [selected, setSelected] = useState<Record<string, T>>({});
  const pageChosen = rows.filter((r) => selected[r.pin]).length;
  return {
    chosen: Object.values(selected),
    keys: Object.keys(selected),
    pageChosen,
    choosePage: (on: boolean) =>
      setSelected((prev) => {
        const others = Object.entries(prev).filter(([pin]) => !rows.some((r) => r.pin === pin));
        return Object.fromEntries([...others, ...(on ? rows.map((r) => [r.pin, r] as const) : [])]);
      }),
    /** a table's onChange: the keys chosen now, the rows of this page among them (others are kept as they were) */
    onChange: (keys: Key[], picked: readonly (T | undefined)[]) =>
      setSelected((prev) => {
        const next: Record<string, T> = {};
        for (const k of keys) {
          const row = picked.find((r) => r?.pin === String(k)) ?? prev[String(k)];
          if (row) next[String(k)] = row;
        }
        return next;
      }),
    clear: () => setSelected({}),
  };
}

/**
 * The apply bar of a review (appliers only): the select-page box (not on a phone, whose cards carry their own), the
 * department new people go to under a visible label, and the button that asks first. `prefix` names the ids.
 */
export function ApplyControls({
  prefix,
  pageRows,
  pageChosen,
  choosePage,
  showSelectPage,
  department,
  setDepartment,
  chosen,
  pending,
  onApply,
}: {
  prefix: string;
  pageRows: number;
  pageChosen: number;
  choosePage: (on: boolean) => void;
  showSelectPage: boolean;
  department: number | undefined;
  setDepartment: (id: number | undefined) => void;
  chosen: number;
  pending: boolean;
  onApply: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {showSelectPage && pageRows > 0 && (
        // antd's own select-all is hidden: its copy in the table's aria-hidden measuring row is focusable
        <Checkbox
          checked={pageChosen === pageRows}
          indeterminate={pageChosen > 0 && pageChosen < pageRows}
          onChange={(e) => choosePage(e.target.checked)}
          data-testid={`${prefix}-select-page`}
        >
          {t('common.selectPage')}
        </Checkbox>
      )}
      {/* a visible label, not a placeholder: antd's placeholder grey is 1.8:1 on white */}
      <label htmlFor={`${prefix}-department`}>{t('device.roster.apply.department')}</label>
      <DepartmentSelect
        id={`${prefix}-department`}
        allowClear
        value={department}
        onChange={(v?: number) => setDepartment(v)}
        style={{ width: 220, maxWidth: '100%' }}
        data-testid={`${prefix}-department`}
      />
      <Button
        type="primary"
        icon={<CheckOutlined />}
        disabled={!department || chosen === 0}
        loading={pending}
        onClick={onApply}
        data-testid={`${prefix}-apply`}
      >
        {t('device.roster.apply.button', { count: chosen })}
      </Button>
    </Space>
  );
}
