import { useState } from 'react';
import { Alert, App, Button, Checkbox, Descriptions, Modal, Progress, Space, Table, Tabs, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS, type ImportReport, type ImportRowError, type PhotoReport } from '@faceadmin/shared';
import { useDownloadTemplate, useImportPersons, useImportPhotos } from '../api.ts';
import { importFileProblem } from '../../../ui/importFile.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

const MB = LIMITS.importMaxBytes / 1024 / 1024;

/** Step 1: people from an .xlsx (template, strict mode, missing departments) → report. Step 2: a zip of face photos → report. */
export function ImportDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  // destroyOnHidden: every opening starts again on the people tab with empty steps
  return (
    <Modal
      title={t('person.import.title')}
      open={open}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('person.import.close')}</Button>}
      width={820}
      destroyOnHidden
    >
      <Tabs
        defaultActiveKey="people"
        items={[
          { key: 'people', label: t('person.import.tabPeople'), children: <PeopleImport /> },
          { key: 'photos', label: t('person.import.tabPhotos'), children: <PhotoImport /> },
        ]}
      />
    </Modal>
  );
}

function PeopleImport() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File>();
  const [strict, setStrict] = useState(false);
  const [createDepartments, setCreateDepartments] = useState(false);
  const [progress, setProgress] = useState(0);
  const [report, setReport] = useState<ImportReport>();
  const template = useDownloadTemplate();
  const run = useImportPersons();

  const start = async () => {
    if (!file) return;
    setReport(undefined);
    setProgress(0);
    try {
      setReport(await run.mutateAsync({ file, strict, createDepartments, onProgress: setProgress }));
    } catch {
      // the API client showed the server's message
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="import-people">
      <Alert type="info" showIcon title={t('person.import.hint', { mb: MB })} />
      <Button icon={<DownloadOutlined />} loading={template.isPending} onClick={() => template.mutate()} data-testid="import-template">
        {t('person.import.template')}
      </Button>
      <XlsxDropzone
        file={file}
        onFile={(f) => {
          setFile(f);
          // a new file starts a new import; removing one leaves the last report to read
          if (f) setReport(undefined);
        }}
      />
      <Space wrap>
        <Checkbox checked={strict} onChange={(e) => setStrict(e.target.checked)} data-testid="import-strict">
          {t('person.import.strict')}
        </Checkbox>
        <Checkbox checked={createDepartments} onChange={(e) => setCreateDepartments(e.target.checked)} data-testid="import-create-departments">
          {t('person.import.createDepartments')}
        </Checkbox>
      </Space>
      <Button type="primary" disabled={!file} loading={run.isPending} onClick={() => void start()} data-testid="import-start">
        {t('person.import.start')}
      </Button>
      {run.isPending && <Progress percent={progress >= 100 ? 99 : progress} status="active" data-testid="import-progress" />}
      {run.isPending && progress >= 100 && <Typography.Text type="secondary">{t('person.import.processing')}</Typography.Text>}
      {report && <ImportReportView report={report} />}
    </Space>
  );
}

/** The xlsx file of an import: dropped or picked, checked for type and size (spec §5) before it is kept. */
export function XlsxDropzone({ file, onFile }: { file: File | undefined; onFile: (file: File | undefined) => void }) {
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
            message.error(problem === 'type' ? t('person.import.badType') : t('person.import.tooLarge', { mb: MB }));
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
        <p className="ant-upload-hint">{t('person.import.dropHint', { mb: MB })}</p>
      </Upload.Dragger>
    </div>
  );
}

export function ImportReportView({ report }: { report: ImportReport }) {
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

function PhotoImport() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState(0);
  const [report, setReport] = useState<PhotoReport>();
  const run = useImportPhotos();

  const start = async () => {
    if (!file) return;
    setReport(undefined);
    setProgress(0);
    try {
      setReport(await run.mutateAsync({ file, onProgress: setProgress }));
    } catch {
      // shown by the API client
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="import-photos">
      <Alert type="info" showIcon title={t('person.photos.hint')} />
      <div data-testid="photos-file">
        <Upload.Dragger
          accept=".zip,application/zip"
          maxCount={1}
          fileList={file ? [{ uid: '1', name: file.name, size: file.size, status: 'done' }] : []}
          onRemove={() => setFile(undefined)}
          beforeUpload={(f) => {
            if (!/\.zip$/i.test(f.name)) {
              message.error(t('person.photos.badType'));
              return Upload.LIST_IGNORE;
            }
            setFile(f);
            setReport(undefined);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('person.photos.drop')}</p>
        </Upload.Dragger>
      </div>
      <Button type="primary" disabled={!file} loading={run.isPending} onClick={() => void start()} data-testid="photos-start">
        {t('person.import.start')}
      </Button>
      {run.isPending && <Progress percent={progress >= 100 ? 99 : progress} status="active" />}
      {report && (
        <div data-testid="photos-report">
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label={t('person.import.total')}>{report.total}</Descriptions.Item>
            <Descriptions.Item label={t('person.photos.matched')}>{report.matched}</Descriptions.Item>
            <Descriptions.Item label={t('person.import.failed')}>{report.failed}</Descriptions.Item>
          </Descriptions>
          {report.errors.length > 0 && (
            <Table
              style={{ marginTop: 12 }}
              size="small"
              rowKey={(e) => `${e.file}-${e.reason}`}
              dataSource={report.errors}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              columns={[
                { title: t('person.photos.file'), dataIndex: 'file', width: 200 },
                { title: t('person.import.reason'), dataIndex: 'reason' },
              ]}
            />
          )}
        </div>
      )}
    </Space>
  );
}
