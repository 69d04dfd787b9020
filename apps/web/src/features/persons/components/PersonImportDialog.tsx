import { useState } from 'react';
import { Alert, App, Button, Checkbox, Descriptions, Progress, Space, Table, Tabs, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PhotoReport } from '@faceadmin/shared';
import { ImportDialog, ImportPanel } from '../../../ui/ImportDialog.tsx';
import { IMPORT_MAX_MB } from '../../../ui/importFile.ts';
import { useDownloadTemplate, useImportPersons, useImportPhotos } from '../api.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** Step 1: people from an .xlsx (template, strict mode, missing departments) → report. Step 2: a zip of face photos → report. */
export function PersonImportDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  // destroyOnHidden: every opening starts again on the people tab with empty steps
  return (
    <ImportDialog open={open} onClose={onClose} title={t('person.import.title')} closeLabel={t('person.import.close')} width={820}>
      <Tabs
        defaultActiveKey="people"
        items={[
          { key: 'people', label: t('person.import.tabPeople'), children: <PeopleImport /> },
          { key: 'photos', label: t('person.import.tabPhotos'), children: <PhotoImport /> },
        ]}
      />
    </ImportDialog>
  );
}

function PeopleImport() {
  const { t } = useTranslation();
  const [strict, setStrict] = useState(false);
  const [createDepartments, setCreateDepartments] = useState(false);
  const template = useDownloadTemplate();
  const run = useImportPersons();
  return (
    <ImportPanel
      hint={t('person.import.hint', { mb: IMPORT_MAX_MB })}
      template={{ download: () => template.mutate(), pending: template.isPending }}
      upload={(file, onProgress) => run.mutateAsync({ file, strict, createDepartments, onProgress })}
      testId="import-people"
      fields={
        <Space wrap>
          <Checkbox checked={strict} onChange={(e) => setStrict(e.target.checked)} data-testid="import-strict">
            {t('person.import.strict')}
          </Checkbox>
          <Checkbox checked={createDepartments} onChange={(e) => setCreateDepartments(e.target.checked)} data-testid="import-create-departments">
            {t('person.import.createDepartments')}
          </Checkbox>
        </Space>
      }
    />
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
