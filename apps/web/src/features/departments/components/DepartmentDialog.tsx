import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type DepartmentNode } from '@faceadmin/shared';
import { PersonPicker } from '../../persons/components/PersonPicker.tsx';
import { useCreateDepartment, useUpdateDepartment } from '../api.ts';

/** create: a new department under `parent` (undefined = top level); rename / heads: edit `node`. */
export type DepartmentDialogState =
  { open: false } | { open: true; mode: 'create'; parent?: DepartmentNode | undefined } | { open: true; mode: 'rename' | 'heads'; node: DepartmentNode };

interface Values {
  name: string;
  incharges: number[];
}

export function DepartmentDialog({ state, onClose }: { state: DepartmentDialogState; onClose: (createdId?: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreateDepartment();
  const update = useUpdateDepartment();

  useEffect(() => {
    if (!state.open) return;
    form.resetFields();
    if (state.mode === 'create') form.setFieldsValue({ name: '', incharges: [] });
    else form.setFieldsValue({ name: state.node.name, incharges: state.node.incharges.map((p) => p.id) });
  }, [state, form]);

  if (!state.open) return null;

  const title =
    state.mode === 'create'
      ? state.parent
        ? t('org.addChildOf', { name: state.parent.name })
        : t('org.addTop')
      : state.mode === 'rename'
        ? t('org.renameOf', { name: state.node.name })
        : t('org.headsOf', { name: state.node.name });

  const submit = async () => {
    const v = await form.validateFields();
    if (state.mode === 'create') {
      const r = await create.mutateAsync({ name: v.name.trim(), parent_id: state.parent?.id ?? 0, incharges: v.incharges ?? [] });
      onClose(r.id);
      return;
    }
    const node = state.node;
    await update.mutateAsync(state.mode === 'rename' ? { id: node.id, name: v.name.trim() } : { id: node.id, name: node.name, incharges: v.incharges ?? [] });
    onClose();
  };

  return (
    <Modal
      title={title}
      open
      onCancel={() => onClose()}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={create.isPending || update.isPending}
    >
      {/* named, so its fields' ids (department_incharges…) are not those of the person drawer's fields (incharges) and its labels name them */}
      <Form form={form} name="department" layout="vertical" data-testid="department-form" onFinish={() => void submit().catch(() => undefined)}>
        {state.mode !== 'heads' && (
          <Form.Item
            name="name"
            label={t('org.name')}
            rules={[
              { required: true, whitespace: true, message: t('common.validation.required') },
              { max: LIMITS.textMax, message: t('person.validation.max', { count: LIMITS.textMax }) },
            ]}
          >
            <Input autoFocus maxLength={LIMITS.textMax} data-testid="department-name" />
          </Form.Item>
        )}
        {state.mode !== 'rename' && (
          <Form.Item name="incharges" label={t('org.heads')}>
            <PersonPicker initial={state.mode === 'heads' ? state.node.incharges : []} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
