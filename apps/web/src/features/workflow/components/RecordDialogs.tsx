import { useState } from 'react';
import { Alert, App, Button, Form, Modal, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WorkflowApp } from '@faceadmin/shared';
import { useLanguage } from '../../../lib/i18n.ts';
import { ApiError } from '../../../lib/request.ts';
import { ImportDialog, ImportPanel } from '../../../ui/ImportDialog.tsx';
import { IMPORT_MAX_MB } from '../../../ui/importFile.ts';
import {
  consoleSource,
  fetchDuration,
  uploadWorkflowFile,
  useApplyFor,
  useApprovalTemplate,
  useForm as useAppForm,
  useImportApprovals,
  useSignInLink,
} from '../api.ts';
import { fromUiValues } from '../schema.ts';
import { FormRenderer } from './FormRenderer.tsx';
import { DepartmentPick, PersonPick } from './Pickers.tsx';

/** One person picked (the people search of the console). */
function OnePerson({ value, onChange, 'aria-label': ariaLabel }: { value?: number; onChange?: (id: number | undefined) => void; 'aria-label'?: string }) {
  return <PersonPick source={consoleSource} single initial={[]} value={value ? [value] : []} onChange={(ids) => onChange?.(ids[0])} aria-label={ariaLabel} />;
}

/** An administrator applies on someone's behalf: the app, the person, the app's form. */
export function ApplyForDialog({ open, apps, appId, onClose }: { open: boolean; apps: WorkflowApp[]; appId?: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLanguage();
  const [app, setApp] = useState<number | undefined>(appId);
  const [person, setPerson] = useState<number>();
  const [values] = Form.useForm();
  const form = useAppForm(app ?? 0);
  const apply = useApplyFor();
  const [error, setError] = useState<string>();

  const submit = async () => {
    if (!app || !person || !form.data) return;
    const raw = (await values.validateFields()) as Record<string, unknown>;
    setError(undefined);
    try {
      await apply.mutateAsync({ app_id: app, person_id: person, values: fromUiValues(form.data.schema, raw) });
      message.success(t('workflow.apply.submitted'));
      onClose();
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field : undefined;
      if (field && form.data.schema.fields.some((f) => f.key === field)) values.setFields([{ name: field, errors: [(e as Error).message] }]);
      else setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Modal
      open={open}
      title={t('workflow.apply.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('workflow.apply.submit')}
      okButtonProps={{ disabled: !app || !person || !form.data, loading: apply.isPending }}
      destroyOnHidden
      width={560}
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form layout="vertical">
        <Form.Item label={t('workflow.apply.app')} required>
          <Select
            value={app}
            onChange={setApp}
            options={apps.filter((a) => a.enabled).map((a) => ({ value: a.id, label: a.name }))}
            aria-label={t('workflow.apply.app')}
            data-testid="apply-app"
          />
        </Form.Item>
        <Form.Item label={t('workflow.apply.person')} required>
          <OnePerson value={person} onChange={setPerson} aria-label={t('workflow.apply.person')} />
        </Form.Item>
      </Form>
      {form.data && (
        <FormRenderer
          key={`${app}-${form.data.version}`}
          schema={form.data.schema}
          lang={lang}
          form={values}
          durationOf={(from, to) => fetchDuration(from, to, person)}
          personInput={() => <PersonPick source={consoleSource} initial={[]} />}
          departmentInput={() => <DepartmentPick source={consoleSource} multiple />}
          uploadFile={uploadWorkflowFile}
        />
      )}
    </Modal>
  );
}

/** A one-time sign-in link for a person's self-service page (shown once; the administrator sends it). */
export function LinkDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [person, setPerson] = useState<number>();
  const link = useSignInLink();
  const url = link.data ? `${window.location.origin}${link.data.path}` : '';
  return (
    <Modal
      open={open}
      title={t('workflow.link.title')}
      onCancel={() => (link.reset(), onClose())}
      footer={<Button onClick={() => (link.reset(), onClose())}>{t('workflow.link.close')}</Button>}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('workflow.link.hint')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <div style={{ flex: 1 }}>
          <OnePerson value={person} onChange={setPerson} />
        </div>
        <Button type="primary" disabled={!person} loading={link.isPending} onClick={() => person && link.mutate(person)} data-testid="link-create">
          {t('workflow.link.create')}
        </Button>
      </Space.Compact>
      {link.data && (
        <Alert
          style={{ marginTop: 12 }}
          type="success"
          title={t('workflow.link.created')}
          description={
            <>
              <Typography.Paragraph copyable={{ text: url, onCopy: () => void message.success(t('workflow.link.copied')) }} style={{ wordBreak: 'break-all' }}>
                <span data-testid="link-url">{url}</span>
              </Typography.Paragraph>
              <Typography.Text type="secondary">{t('workflow.link.expires', { time: new Date(link.data.expires_at).toLocaleString() })}</Typography.Text>
            </>
          }
        />
      )}
    </Modal>
  );
}

/** Past records from xlsx (spec §5: xlsx only, at most 2 MB), with per-row errors as in the people import. */
export function ImportApprovalsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const template = useApprovalTemplate();
  const run = useImportApprovals();
  return (
    <ImportDialog open={open} onClose={onClose} title={t('workflow.import.title')} closeLabel={t('workflow.link.close')}>
      <ImportPanel
        hint={t('workflow.import.hint', { mb: IMPORT_MAX_MB })}
        template={{ download: () => template.mutate(), pending: template.isPending }}
        upload={(file, onProgress) => run.mutateAsync({ file, onProgress })}
        testId="import-approvals"
      />
    </ImportDialog>
  );
}
