import type { ReactNode } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  /** Runs the form's save (a refusal is shown by the caller; the dialog stays open). */
  onSave: () => void;
  saving: boolean;
  /** data-testid of the save button */
  testId?: string;
  width?: number;
  destroyOnHidden?: boolean;
  children: ReactNode;
}

/**
 * The dialog of an add/edit form: Save and Cancel, the save button busy while saving, the form rendered before it
 * first opens (so `form.setFieldsValue` works on an edit).
 */
export function SaveModal({ title, open, onClose, onSave, saving, testId, width, destroyOnHidden, children }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      onOk={onSave}
      okText={t('common.actions.save')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={saving}
      okButtonProps={testId ? { 'data-testid': testId } : {}}
      {...(width ? { width } : {})}
      {...(destroyOnHidden ? { destroyOnHidden } : {})}
      forceRender
    >
      {children}
    </Modal>
  );
}
