import { useEffect } from 'react';
import { App, Form, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { ruleSet } from '../../../ui/rules.ts';
import { useTransferPersons } from '../api.ts';
import { DepartmentSelect } from './DepartmentSelect.tsx';

interface Props {
  open: boolean;
  ids: number[];
  /** done = people were moved */
  onClose: (done: boolean) => void;
}

interface Values {
  department_id: number;
  mode: 'move' | 'add';
}

/** Batch transfer: move the selected people into a department (replacing theirs) or add it to theirs. */
export function TransferDialog({ open, ids, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const transfer = useTransferPersons();

  useEffect(() => {
    if (open) form.setFieldsValue({ department_id: undefined as unknown as number, mode: 'move' });
  }, [open, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const r = await transfer.mutateAsync({ ids, department_id: v.department_id, mode: v.mode });
    message.success(t('person.transfer.done', { count: r.count }));
    onClose(true);
  };

  return (
    <Modal
      title={t('person.transfer.title', { count: ids.length })}
      open={open}
      onCancel={() => onClose(false)}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('common.actions.ok')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={transfer.isPending}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="transfer-form">
        <Form.Item name="department_id" label={t('person.transfer.department')} rules={[ruleSet(t).required]}>
          <DepartmentSelect data-testid="transfer-department" />
        </Form.Item>
        <Form.Item name="mode" label={t('person.transfer.mode')}>
          <Radio.Group
            options={[
              { value: 'move', label: t('person.transfer.move') },
              { value: 'add', label: t('person.transfer.add') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
