import type { Punch } from '@faceadmin/shared';
import { ListPage, useListQuery, type ListColumn } from '../../../ui/ListPage.tsx';
import { Avatar, Button, Image, Tag, Typography } from 'antd';
import { DownloadOutlined, PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCompanyInfo } from '../../companies/api.ts';
import { deviceFilter } from '../../devices/components/DeviceFilter.tsx';
import { useExportPunches, usePunches } from '../api.ts';
import { measure, type PunchFilters } from '../logic.ts';

const DUAL_COLOR = { paired: 'green', pending: 'processing', unpaired: 'red' } as const;

/** /attendance/list: punch records from the face devices (right `attendance`). */
export default function PunchListPage() {
  const { t } = useTranslation();
  const state = useListQuery<PunchFilters>({}, 20);
  const list = usePunches(state.query);
  const exportList = useExportPunches();
  // spec §3 Company filter seconds: every punch is listed; the attendance engine counts a burst once.
  const company = useCompanyInfo(true).data;
  const filterSeconds = company?.filter_seconds;

  const columns: ListColumn<Punch>[] = [
    {
      title: t('punch.fields.name'),
      key: 'name',
      render: (_, r) => (r.stranger ? <Tag color="volcano">{t('punch.stranger')}</Tag> : r.name),
    },
    { title: t('punch.fields.number'), dataIndex: 'number', key: 'number' },
    { title: t('punch.fields.device'), dataIndex: 'device', key: 'device' },
    {
      title: t('punch.fields.direction'),
      dataIndex: 'direction',
      key: 'direction',
      render: (v: string) => (v ? t(v === 'out' ? 'device.direction.out' : 'device.direction.in') : ''),
    },
    { title: t('punch.fields.day'), dataIndex: 'day', key: 'day' },
    { title: t('punch.fields.time'), dataIndex: 'time', key: 'time' },
    {
      title: t('punch.fields.picture'),
      key: 'picture',
      render: (_, r) =>
        r.pic_url ? (
          <Image
            src={r.pic_url}
            width={40}
            height={40}
            style={{ objectFit: 'cover', borderRadius: 4 }}
            alt={r.name || t('punch.stranger')}
            data-testid="punch-photo"
          />
        ) : (
          <Avatar shape="square" size={40} icon={<PictureOutlined />} />
        ),
    },
    { title: t('punch.fields.temperature'), dataIndex: 'temperature', key: 'temperature', render: (v: number | null) => measure(v, 1, ' °C') },
    {
      title: t('punch.fields.alcohol'),
      dataIndex: 'alcohol',
      key: 'alcohol',
      render: (v: number | null, r) =>
        r.alcohol_over ? (
          <Tag color="red" title={t('punch.alcoholOver')} data-testid="alcohol-over">
            {measure(v, 1, '')}
          </Tag>
        ) : (
          measure(v, 1, '')
        ),
    },
    {
      title: t('punch.fields.stranger'),
      dataIndex: 'stranger',
      key: 'stranger',
      render: (v: boolean) => (v ? <Tag color="volcano">{t('punch.stranger')}</Tag> : <Tag color="green">{t('punch.known')}</Tag>),
    },
    // spec §9 two-person authentication: shown while the company's option is on
    ...(company?.options.dualAuth === 1
      ? [
          {
            title: t('punch.fields.dualAuth'),
            key: 'dual',
            render: (_: unknown, r: Punch) =>
              r.dual_state ? (
                <Tag color={DUAL_COLOR[r.dual_state]} data-testid="punch-dual">
                  {r.dual_state === 'paired' ? t('punch.dual.pairedWith', { name: r.dual_partner ?? '' }) : t(`punch.dual.${r.dual_state}`)}
                </Tag>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <ListPage<Punch, PunchFilters>
      title={t('route.attendanceList')}
      testId="punch-list-page"
      tableTestId="punch-table"
      extra={
        filterSeconds ? (
          <Typography.Text type="secondary" data-testid="punch-filter-note">
            {t('punch.filterNote', { seconds: filterSeconds })}
          </Typography.Text>
        ) : undefined
      }
      columns={columns}
      state={state}
      list={list}
      pageSizeOptions={[20, 50, 100]}
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('punch.keyword'), width: 220, testId: 'punch-keyword' },
        deviceFilter(t('punch.fields.device'), 'punch-device-filter'),
        { kind: 'dayRange', from: 'from', to: 'to', testId: 'punch-range' },
        { kind: 'check', param: 'stranger', label: t('punch.strangersOnly'), testId: 'punch-strangers' },
      ]}
      toolbar={
        // its own label, and no progress line: its download reports none (useExportPunches)
        <Button icon={<DownloadOutlined />} loading={exportList.isPending} onClick={() => exportList.mutate(state.query)} data-testid="punch-export">
          {t('punch.export')}
        </Button>
      }
    />
  );
}
