import { useState } from 'react';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Radio, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPLY_SCOPES, WORKFLOW_ICONS, WORKFLOW_LIMITS, type AppInput, type WorkflowApp } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { consoleSource, useSaveApp } from '../api.ts';
import { DepartmentPick, PersonPick } from './Pickers.tsx';
import { AppIcon } from './AppIcon.tsx';

interface Props {
  open: boolean;
  /** the app edited; undefined = a new one */
  app?: WorkflowApp | undefined;
  onClose: () => void;
}

/** Creates or edits an approval app: name and sort (spec §5: required), icon, enabled, who may apply. */
export function AppDrawer({ open, app, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AppInput>();
  const save = useSaveApp();
  const [error, setError] = useState<string>();
  const scope = Form.useWatch('scope', form);

  // rendered afresh for every opening (the page mounts it while editing), so the initial values are the app's
  const initial: AppInput = app
    ? {
        name: app.name,
        icon: app.icon as AppInput['icon'],
        sort: app.sort,
        enabled: app.enabled,
        scope: app.scope,
        department_ids: app.departments.map((d) => d.id),
        person_ids: app.persons.map((p) => p.id),
        description: app.description,
      }
    : { name: '', icon: 'document', sort: 100, enabled: true, scope: 'everyone', department_ids: [], person_ids: [], description: '' };

  const submit = async () => {
    const v = await form.validateFields();
    setError(undefined);
    try {
      await save.mutateAsync({
        id: app?.id,
        body: { ...v, department_ids: v.department_ids ?? [], person_ids: v.person_ids ?? [], description: v.description ?? '' },
      });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field?.split('.')[0] : undefined;
      if (field && field in form.getFieldsValue()) form.setFields([{ name: field as keyof AppInput, errors: [(e as Error).message] }]);
      else setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={app ? t('workflow.app.edit') : t('workflow.app.create')}
      size={520}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="app-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      }
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="app-error" />}
      <Form form={form} layout="vertical" initialValues={initial} data-testid="app-form">
        <Form.Item name="name" label={t('workflow.app.name')} rules={[{ required: true, whitespace: true, message: t('workflow.app.nameRequired') }]}>
          <Input maxLength={WORKFLOW_LIMITS.nameMax} data-testid="app-name" />
        </Form.Item>
        <Form.Item name="icon" label={t('workflow.app.icon')} rules={[{ required: true }]}>
          <Select
            data-testid="app-icon"
            options={WORKFLOW_ICONS.map((i) => ({
              value: i,
              label: (
                <Space>
                  <AppIcon icon={i} size={18} />
                  {t(`workflow.icons.${i}`)}
                </Space>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item name="sort" label={t('workflow.app.sort')} rules={[{ required: true, message: t('workflow.app.sortRequired') }]}>
          <InputNumber min={0} max={WORKFLOW_LIMITS.sortMax} precision={0} style={{ width: 160 }} data-testid="app-sort" />
        </Form.Item>
        <Form.Item name="enabled" label={t('workflow.app.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="scope" label={t('workflow.app.scope')}>
          <Radio.Group options={APPLY_SCOPES.map((s) => ({ value: s, label: t(`workflow.scope.${s}`) }))} data-testid="app-scope" />
        </Form.Item>
        {scope === 'departments' && (
          <Form.Item name="department_ids" label={t('workflow.app.departments')} rules={[{ required: true, type: 'array', min: 1 }]}>
            <DepartmentPick source={consoleSource} multiple data-testid="app-departments" />
          </Form.Item>
        )}
        {scope === 'people' && (
          <Form.Item name="person_ids" label={t('workflow.app.people')} rules={[{ required: true, type: 'array', min: 1 }]}>
            <PersonPick source={consoleSource} initial={app?.persons ?? []} />
          </Form.Item>
        )}
        <Form.Item name="description" label={t('workflow.app.description')}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
