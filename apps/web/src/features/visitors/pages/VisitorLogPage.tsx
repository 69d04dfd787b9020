import { Image, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { VISIT_OPEN_STATES, type VisitLogExportBody, type VisitRecord } from '@faceadmin/shared';
import { ListPage, useListQuery, type ListColumn } from '../../../ui/ListPage.tsx';
import { useExportVisits, useVisitLog, useVisitorDoors } from '../api.ts';

/**
 * /system/visitorlog (spec §2, not in LAN mode; §3 "Visitor log": inviter, open time, open status): each time a door
 * let a visitor in (success) or refused them (failure), with the capture photo; filters and export.
 */
export default function VisitorLogPage() {
  const { t } = useTranslation();
  const state = useListQuery<VisitLogExportBody>({}, 20);
  const log = useVisitLog(state.query);
  const doors = useVisitorDoors();
  const exportLog = useExportVisits();
  const { page: _page, pageSize: _size, ...filters } = state.query;

  const columns: ListColumn<VisitRecord>[] = [
    { title: t('visitor.fields.inviter'), dataIndex: 'inviter', key: 'inviter' },
    { title: t('visitor.fields.visitor'), dataIndex: 'visitor', key: 'visitor' },
    { title: t('visitor.fields.phone'), dataIndex: 'phone', key: 'phone' },
    { title: t('visitor.fields.door'), dataIndex: 'door', key: 'door' },
    { title: t('visitor.fields.openTime'), dataIndex: 'time', key: 'time' },
    {
      title: t('visitor.fields.openStatus'),
      key: 'status',
      render: (_, v) => (
        <Tag color={v.status === 'success' ? 'green' : 'red'} data-testid="visit-status">
          {t(`visitor.open.${v.status}`)}
        </Tag>
      ),
    },
    {
      title: t('visitor.fields.photo'),
      key: 'photo',
      render: (_, v) =>
        v.pic_url ? <Image src={v.pic_url} width={48} height={64} style={{ objectFit: 'cover' }} alt={v.visitor} data-testid="visit-photo" /> : null,
    },
  ];

  return (
    <ListPage<VisitRecord, VisitLogExportBody>
      title={t('route.visitorLog')}
      testId="visitor-log-page"
      tableTestId="visit-table"
      cardTitle="visitor"
      columns={columns}
      state={state}
      list={log}
      pageSizeOptions={[20, 50, 100]}
      filters={[
        { kind: 'dayRange', from: 'from', to: 'to', testId: 'visit-range' },
        { kind: 'keyword', param: 'keyword', placeholder: t('visitor.logKeyword'), width: 220, testId: 'visit-keyword' },
        {
          kind: 'select',
          param: 'device_id',
          placeholder: t('visitor.fields.door'),
          width: 180,
          loading: doors.isLoading,
          options: (doors.data?.items ?? []).map((d) => ({ value: d.id, label: d.name })),
          testId: 'visit-door-filter',
        },
        {
          kind: 'select',
          param: 'status',
          placeholder: t('visitor.fields.openStatus'),
          width: 150,
          options: VISIT_OPEN_STATES.map((s) => ({ value: s, label: t(`visitor.open.${s}`) })),
          testId: 'visit-status-filter',
        },
      ]}
      exporter={{ pending: exportLog.isPending, bytes: exportLog.bytes, run: () => exportLog.mutate(filters), testId: 'visit-export' }}
    />
  );
}
