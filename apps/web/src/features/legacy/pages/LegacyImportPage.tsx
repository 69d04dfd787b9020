import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Progress, Radio, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { CheckOutlined, FileSearchOutlined, InboxOutlined, ImportOutlined } from '@ant-design/icons';

import { useTranslation } from 'react-i18next';
import { BackTitle } from '../../../ui/BackTitle.tsx';
import { LEGACY_FIELDS, type LegacyField, type LegacyImport, type LegacyKind, type LegacyMapping, type LegacyPreview } from '@faceadmin/shared';
import { useDeviceNames } from '../../devices/api.ts';
import { DepartmentSelect } from '../../persons/components/DepartmentSelect.tsx';
import { JobProgress } from '../../../ui/JobProgress.tsx';
import { useLegacyImport, useLegacyPreview, useLegacyRun } from '../api.ts';

/** The largest export the server reads (legacy.routes.ts LEGACY_MAX_BYTES). */
const MAX_MB = 40;
/** What a run cannot do without (the server names a missing one too: legacy.mapping.ts missingField). */
const REQUIRED: Record<LegacyKind, LegacyField[][]> = {
  employees: [['number'], ['name', 'first_name', 'last_name']],
  departments: [['department']],
  transactions: [['number'], ['time', 'date']],
};
const ENCODINGS = ['utf-8', 'gbk', 'big5', 'shift_jis'] as const;

/** The counts of a report, the ones that matter for its kind. */
function Report({ run }: { run: LegacyImport }) {
  const { t } = useTranslation();
  const r = run.report!;
  const counts: [string, number][] =
    run.kind === 'employees'
      ? [
          ['created', r.created],
          ['updated', r.updated],
          ['unchanged', r.unchanged],
          ['departments', r.departments],
        ]
      : run.kind === 'departments'
        ? [
            ['departments', r.departments],
            ['departmentsHere', r.unchanged],
          ]
        : [
            ['stored', r.stored],
            ['already', r.already],
            ['strangers', r.strangers],
          ];
  counts.push(['duplicates', r.duplicates], ['failed', r.failed]);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="legacy-report">
      <Alert
        type={r.failed ? 'warning' : 'success'}
        showIcon
        title={t(run.dry_run ? 'legacy.report.checked' : 'legacy.report.imported', { count: r.rows })}
        data-testid="legacy-report-title"
      />
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} bordered>
        {counts.map(([k, v]) => (
          <Descriptions.Item key={k} label={t(`legacy.report.${k}`)}>
            <span data-testid={`legacy-count-${k}`}>{v}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
      {r.errors.length > 0 && (
        <Table
          size="small"
          rowKey={(e) => `${e.row}-${e.field}`}
          dataSource={r.errors}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: t('legacy.report.row'), dataIndex: 'row', key: 'row', width: 80 },
            { title: t('legacy.report.field'), dataIndex: 'field', key: 'field', width: 160 },
            { title: t('legacy.report.reason'), dataIndex: 'reason', key: 'reason' },
          ]}
          data-testid="legacy-errors"
        />
      )}
    </Space>
  );
}

/**
 * /user/legacy — taking over a working site from the old software's files (issue #30): a ZKBioTime / ZKTime-style
 * export of employees, departments or attendance transactions is read, its columns mapped (by their headers, or as this company
 * mapped them last), checked without writing, then imported with its progress and a report of each refused row.
 */
export default function LegacyImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<LegacyKind>('employees');
  const [file, setFile] = useState<File>();
  const [tooLarge, setTooLarge] = useState(false);
  const [uploaded, setUploaded] = useState(0);
  const [preview, setPreview] = useState<LegacyPreview>();
  const [mapping, setMapping] = useState<LegacyMapping>({});
  const [department, setDepartment] = useState<number>();
  const [device, setDevice] = useState<number>();
  const [runId, setRunId] = useState(0);
  const read = useLegacyPreview();
  const start = useLegacyRun();
  const devices = useDeviceNames();
  // the run started here, followed every second until it is over
  const info = useLegacyImport(runId);
  const run = info.data;
  const running = run?.state === 'running';
  const over = runId > 0 && (run?.state === 'done' || run?.state === 'failed');
  useEffect(() => {
    if (!over) return;
    // what an import wrote shows in the people, punches and attendance lists
    if (run && !run.dry_run) for (const key of ['person', 'punch', 'att', 'org']) void queryClient.invalidateQueries({ queryKey: [key] });
  }, [over, run, queryClient]);

  const readFile = async (encoding?: string) => {
    if (!file) return;
    try {
      const p = await read.mutateAsync({ file, kind, encoding, onProgress: setUploaded });
      setPreview(p);
      setMapping(p.mapping);
      setRunId(0);
    } catch {
      // shown by the API client
    }
  };
  const go = async (dryRun: boolean) => {
    if (!preview) return;
    try {
      const r = await start.mutateAsync({
        id: preview.id,
        mapping,
        dry_run: dryRun,
        ...(department ? { department_id: department } : {}),
        ...(device ? { device_id: device } : {}),
      });
      queryClient.setQueryData(['legacy', 'info', r.id], r);
      setRunId(r.id);
    } catch {
      // shown by the API client
    }
  };

  const fields: readonly LegacyField[] = LEGACY_FIELDS[kind];
  const mapped = (f: LegacyField) => mapping[f] !== undefined && mapping[f] !== null;
  const missing = REQUIRED[kind].find((group) => !group.some(mapped));
  const columnOptions = (preview?.headers ?? []).map((h, i) => ({
    value: i,
    label: t('legacy.column', { n: i + 1, header: h || '—', example: preview?.sample[0]?.[i] ?? '' }),
  }));

  return (
    <Card
      title={
        <BackTitle to="/user/list" back={t('legacy.back')}>
          {t('legacy.title')}
        </BackTitle>
      }
      data-testid="legacy-page"
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>{t('legacy.intro')}</Typography.Paragraph>
        <Space wrap>
          <span id="legacy-kind-label">{t('legacy.kind')}</span>
          <Radio.Group
            aria-labelledby="legacy-kind-label"
            optionType="button"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as LegacyKind);
              setPreview(undefined);
              setRunId(0);
            }}
            options={[
              { value: 'employees', label: t('legacy.kinds.employees') },
              { value: 'departments', label: t('legacy.kinds.departments') },
              { value: 'transactions', label: t('legacy.kinds.transactions') },
            ]}
            data-testid="legacy-kind"
          />
        </Space>
        <Upload.Dragger
          accept=".csv,.txt,.xlsx"
          maxCount={1}
          beforeUpload={(f) => {
            setTooLarge(f.size > MAX_MB * 1024 * 1024);
            setFile(f);
            setPreview(undefined);
            setRunId(0);
            return false;
          }}
          onRemove={() => {
            setFile(undefined);
            setPreview(undefined);
          }}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          data-testid="legacy-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined aria-hidden />
          </p>
          <p>{t('legacy.drop', { mb: MAX_MB })}</p>
        </Upload.Dragger>
        {tooLarge && <Alert type="error" showIcon title={t('legacy.tooLarge', { mb: MAX_MB })} />}
        <Button icon={<FileSearchOutlined />} disabled={!file || tooLarge} loading={read.isPending} onClick={() => void readFile()} data-testid="legacy-read">
          {t('legacy.read')}
        </Button>
        {read.isPending && uploaded < 100 && <Progress percent={uploaded} aria-label={t('legacy.uploading')} />}

        {preview && (
          <>
            <Alert
              type="info"
              showIcon
              title={
                <span data-testid="legacy-preview-summary">
                  {t('legacy.summary', { file: preview.file_name, count: preview.rows })}
                  {preview.remembered && (
                    <Tag style={{ marginInlineStart: 8 }} data-testid="legacy-remembered">
                      {t('legacy.remembered')}
                    </Tag>
                  )}
                </span>
              }
            />
            {preview.encoding !== 'xlsx' && (
              <Space wrap>
                <label htmlFor="legacy-encoding">{t('legacy.encoding')}</label>
                <Select
                  id="legacy-encoding"
                  value={preview.encoding}
                  style={{ width: 200 }}
                  options={ENCODINGS.map((e) => ({ value: e, label: t(`legacy.encodings.${e}`) }))}
                  onChange={(e: string) => void readFile(e)}
                  data-testid="legacy-encoding"
                />
              </Space>
            )}
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('legacy.mapping')}
            </Typography.Title>
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 12 }} data-testid="legacy-mapping">
              {fields.map((f) => (
                <Space key={f} orientation="vertical" size={2} style={{ width: '100%' }}>
                  <label htmlFor={`legacy-map-${f}`}>
                    {t(`legacy.fields.${f}`)}
                    {REQUIRED[kind].some((g) => g.length === 1 && g[0] === f) && <span aria-hidden> *</span>}
                  </label>
                  <Select<number>
                    id={`legacy-map-${f}`}
                    allowClear
                    placeholder={t('legacy.notInFile')}
                    value={mapping[f] ?? undefined}
                    aria-required={REQUIRED[kind].some((g) => g.length === 1 && g[0] === f)}
                    onChange={(v?: number) => setMapping((m) => ({ ...m, [f]: v ?? null }))}
                    options={columnOptions}
                    style={{ width: '100%' }}
                    data-testid={`legacy-map-${f}`}
                  />
                </Space>
              ))}
            </div>
            {missing && (
              <Alert type="warning" showIcon title={t('legacy.missing', { field: t(`legacy.fields.${missing[0]!}`) })} data-testid="legacy-missing" />
            )}
            {kind !== 'transactions' ? (
              <Space wrap>
                <label htmlFor="legacy-department">{t('legacy.department')}</label>
                <DepartmentSelect
                  id="legacy-department"
                  allowClear
                  value={department}
                  onChange={(v?: number) => setDepartment(v)}
                  style={{ width: 260, maxWidth: '100%' }}
                  data-testid="legacy-department"
                />
              </Space>
            ) : (
              <Space wrap>
                <label htmlFor="legacy-device">{t('legacy.device')}</label>
                <Select<number>
                  id="legacy-device"
                  allowClear
                  value={device}
                  onChange={(v?: number) => setDevice(v)}
                  options={(devices.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
                  style={{ width: 260, maxWidth: '100%' }}
                  data-testid="legacy-device"
                />
              </Space>
            )}
            {/* the rows scroll sideways in a region a keyboard can reach (WCAG 2.1.1) */}
            <div tabIndex={0} role="region" aria-label={t('legacy.sample', { count: preview.sample.length })} style={{ overflowX: 'auto' }}>
              <Table
                size="small"
                rowKey={(_, i) => String(i)}
                dataSource={preview.sample}
                pagination={false}
                caption={t('legacy.sample', { count: preview.sample.length })}
                columns={preview.headers.map((h, i) => ({ title: h || `#${i + 1}`, key: String(i), render: (_: unknown, row: string[]) => row[i] ?? '' }))}
                data-testid="legacy-sample"
              />
            </div>
            <Space wrap>
              <Button
                icon={<CheckOutlined />}
                disabled={!!missing || running}
                loading={start.isPending && start.variables?.dry_run}
                onClick={() => void go(true)}
                data-testid="legacy-check"
              >
                {t('legacy.check')}
              </Button>
              <Button
                type="primary"
                icon={<ImportOutlined />}
                disabled={!!missing || running}
                loading={start.isPending && !start.variables?.dry_run}
                onClick={() => void go(false)}
                data-testid="legacy-import"
              >
                {t('legacy.import')}
              </Button>
            </Space>
          </>
        )}
        {run && running && (
          <JobProgress
            done={run.done}
            total={run.total}
            label={t('legacy.progressLabel')}
            text={t('legacy.progress', { done: run.done, total: run.total })}
            testId="legacy-progress"
          />
        )}
        {run?.state === 'failed' && (
          <Alert
            type="error"
            showIcon
            title={t('legacy.failed', { reason: t(run.reason === 'interrupted' ? 'legacy.failedReasons.interrupted' : 'legacy.failedReasons.error') })}
            data-testid="legacy-failed"
          />
        )}
        {run?.state === 'done' && run.report && <Report run={run} />}
      </Space>
    </Card>
  );
}
