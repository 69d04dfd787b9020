import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Descriptions, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportReport, ImportRowError } from '@faceadmin/shared';
import { IMPORT_MAX_MB, importFileProblem } from './importFile.ts';

// The strings every xlsx import shares (the drop zone, the start button, the report) were the people import's
// first and keep their keys under person.import; a feature brings only its own title, hint and close label.

/** The frame of an import: a dialog that starts again empty at every opening (destroyOnHidden) with one close button. */
export function ImportDialog(props: { open: boolean; onClose: () => void; title: string; closeLabel: string; width?: number; children: ReactNode }) {
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      footer={<Button onClick={props.onClose}>{props.closeLabel}</Button>}
      width={props.width ?? 760}
      destroyOnHidden
    >
      {props.children}
    </Modal>
  );
}

export interface ImportPanelProps {
  /** What the sheet should hold; `{{mb}}` in the text is filled by the caller with IMPORT_MAX_MB. */
  hint: string;
  /** The template download, where the feature has one. */
  template?: { download: () => void; pending: boolean } | undefined;
  /** Sends the file (the feature adds its own fields to the form) and resolves to the server's per-row report. */
  upload: (file: File, onProgress: (percent: number) => void) => Promise<ImportReport>;
  /** The feature's options, between the file and the start button. */
  fields?: ReactNode;
  /** data-testid of the panel and of its start button. */
  testId: string;
  startTestId?: string;
}

/** An xlsx import (spec §5): template, the file, start, the upload's progress then the server's wait, the per-row report. */
export function ImportPanel({ hint, template, upload, fields, testId, startTestId = 'import-start' }: ImportPanelProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState(0);
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<ImportReport>();

  const start = async () => {
    if (!file) return;
    setReport(undefined);
    setProgress(0);
    setRunning(true);
    try {
      setReport(await upload(file, setProgress));
    } catch {
      // the API client showed the server's message
    } finally {
      setRunning(false);
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid={testId}>
      <Alert type="info" showIcon title={hint} />
      {template && (
        <Button icon={<DownloadOutlined />} loading={template.pending} onClick={template.download} data-testid="import-template">
          {t('person.import.template')}
        </Button>
      )}
      <XlsxDropzone
        file={file}
        onFile={(f) => {
          setFile(f);
          // a new file starts a new import; removing one leaves the last report to read
          if (f) setReport(undefined);
        }}
      />
      {fields}
      <Button type="primary" disabled={!file} loading={running} onClick={() => void start()} data-testid={startTestId}>
        {t('person.import.start')}
      </Button>
      {running && <Progress percent={progress >= 100 ? 99 : progress} status="active" data-testid="import-progress" />}
      {running && progress >= 100 && <Typography.Text type="secondary">{t('person.import.processing')}</Typography.Text>}
      {report && <ImportReportView report={report} />}
    </Space>
  );
}

/** The xlsx file of an import: dropped or picked, checked for type and size (spec §5) before it is kept. */
function XlsxDropzone({ file, onFile }: { file: File | undefined; onFile: (file: File | undefined) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <div data-testid="import-file">
      <Upload.Dragger
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        maxCount={1}
        fileList={file ? [{ uid: '1', name: file.name, size: file.size, status: 'done' }] : []}
        onRemove={() => onFile(undefined)}
        beforeUpload={(f) => {
          const problem = importFileProblem(f);
          if (problem) {
            message.error(problem === 'type' ? t('person.import.badType') : t('person.import.tooLarge', { mb: IMPORT_MAX_MB }));
            return Upload.LIST_IGNORE;
          }
          onFile(f);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('person.import.drop')}</p>
        <p className="ant-upload-hint">{t('person.import.dropHint', { mb: IMPORT_MAX_MB })}</p>
      </Upload.Dragger>
    </div>
  );
}

/** The server's report: written or not, the counts, and each refused row with its field and reason. */
function ImportReportView({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  return (
    <div data-testid="import-report">
      {report.written ? (
        <Alert
          type={report.failed ? 'warning' : 'success'}
          showIcon
          title={report.failed ? t('person.import.doneWithErrors', { count: report.failed }) : t('person.import.done')}
        />
      ) : (
        <Alert type="error" showIcon title={report.errors.length ? t('person.import.notWritten') : t('person.import.nothing')} />
      )}
      <Descriptions size="small" column={4} style={{ marginTop: 12 }} bordered>
        <Descriptions.Item label={t('person.import.total')}>
          <span data-testid="report-total">{report.total}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('person.import.created')}>
          <span data-testid="report-created">{report.created}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('person.import.updated')}>
          <span data-testid="report-updated">{report.updated}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('person.import.failed')}>
          <span data-testid="report-failed">{report.failed}</span>
        </Descriptions.Item>
      </Descriptions>
      {report.errors.length > 0 && (
        <Table<ImportRowError>
          style={{ marginTop: 12 }}
          size="small"
          rowKey={(e) => `${e.row}-${e.field}-${e.reason}`}
          dataSource={report.errors}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: t('person.import.row'), dataIndex: 'row', width: 80 },
            { title: t('person.import.field'), dataIndex: 'field', width: 160 },
            { title: t('person.import.reason'), dataIndex: 'reason' },
          ]}
          data-testid="import-errors"
        />
      )}
    </div>
  );
}
