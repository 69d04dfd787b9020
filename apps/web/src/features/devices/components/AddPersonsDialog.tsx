import { useMemo, useState } from 'react';
import { App, Empty, Input, Modal, Spin, Tree, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAddDevicePersons, useOrgPersons } from '../api.ts';
import { peopleOutside, pickedToBody, pickerTree, topDepartments, type PickerNode } from '../logic.ts';

interface Props {
  deviceId: number;
  open: boolean;
  onClose: () => void;
}

function filterTree(nodes: PickerNode[], text: string): PickerNode[] {
  if (!text) return nodes;
  const q = text.toLowerCase();
  return nodes.flatMap((n) => {
    if (n.title.toLowerCase().includes(q)) return [n];
    const children = filterTree(n.children ?? [], text);
    return children.length ? [{ ...n, children }] : [];
  });
}

/** Choose departments and/or people (working people by department) and add them to the device. */
export function AddPersonsDialog({ deviceId, open, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const org = useOrgPersons(open);
  const add = useAddDevicePersons();
  const [checked, setChecked] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const tree = useMemo(() => pickerTree(org.data ?? []), [org.data]);
  const shown = useMemo(() => filterTree(tree, search.trim()), [tree, search]);

  const { departments, people } = useMemo(() => {
    const picked = pickedToBody(checked);
    const top = topDepartments(org.data ?? [], new Set(picked.department_ids));
    return { departments: top, people: peopleOutside(org.data ?? [], new Set(top), new Set(picked.person_ids)) };
  }, [checked, org.data]);
  const nothing = departments.length === 0 && people.length === 0;

  const submit = async () => {
    try {
      const r = await add.mutateAsync({ id: deviceId, department_ids: departments, person_ids: people });
      message.success(t('device.persons.added', { added: r.added, skipped: r.skippedLeft }));
      setChecked([]);
      onClose();
    } catch {
      // shown by the API client
    }
  };

  return (
    <Modal
      title={t('device.persons.addTitle')}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okButtonProps={{ disabled: nothing, 'data-testid': 'add-persons-ok' }}
      confirmLoading={add.isPending}
      okText={t('device.persons.addButton')}
      cancelText={t('common.actions.cancel')}
      width={560}
    >
      <Typography.Paragraph type="secondary">{t('device.persons.addHint')}</Typography.Paragraph>
      <Input.Search allowClear placeholder={t('device.persons.search')} onChange={(e) => setSearch(e.target.value)} style={{ marginBottom: 8 }} />
      <div style={{ maxHeight: 420, overflow: 'auto' }} data-testid="add-persons-tree">
        {org.isLoading ? (
          <Spin />
        ) : shown.length ? (
          <Tree
            checkable
            defaultExpandAll
            treeData={shown}
            checkedKeys={checked}
            onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </div>
      <Typography.Text type="secondary">
        {t('device.persons.picked', {
          departments: t('common.count.departments', { count: departments.length }),
          people: t('common.count.people', { count: people.length }),
        })}
      </Typography.Text>
    </Modal>
  );
}
