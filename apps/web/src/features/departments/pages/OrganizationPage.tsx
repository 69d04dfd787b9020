import { useMemo, useState } from 'react';
import { App, Button, Card, Col, Dropdown, Empty, Row, Space, Spin, Tag, Tooltip, Tree, Typography, type TreeDataNode, type TreeProps } from 'antd';
import { DeleteOutlined, EditOutlined, MoreOutlined, PlusOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DepartmentNode } from '@faceadmin/shared';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { PersonTable } from '../../persons/components/PersonTable.tsx';
import { usePersonRights } from '../../persons/api.ts';
import { useDeleteDepartment, useDepartmentTree, useMoveDepartment } from '../api.ts';
import { DepartmentDialog, type DepartmentDialogState } from '../components/DepartmentDialog.tsx';
import { dropPlaceOf, findNode, flattenTree, pathTo, planMove } from '../tree.ts';

/** /user/organization: the department tree beside the people of the selected department (incl. sub-departments). */
export default function OrganizationPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { canEdit } = usePersonRights();
  const tree = useDepartmentTree();
  const remove = useDeleteDepartment();
  const move = useMoveDepartment();
  const [selected, setSelected] = useState<number>();
  // undefined until the tree first loads
  const [expanded, setExpanded] = useState<number[]>();
  const [dialog, setDialog] = useState<DepartmentDialogState>({ open: false });
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);

  // First load: everything expanded. Afterwards the user's expansion is kept.
  if (expanded === undefined && tree.data) setExpanded(flattenTree(tree.data).map((n) => n.id));

  const expand = (ids: number[]) => setExpanded((e) => [...new Set([...(e ?? []), ...ids])]);
  // A selected department that disappeared (deleted) counts as unselected.
  const selectedNode = selected ? findNode(nodes, selected) : undefined;

  const confirmDelete = (node: DepartmentNode) =>
    modal.confirm({
      title: t('org.deleteTitle'),
      content: t('org.deleteConfirm', { name: node.name }),
      okText: t('common.actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync(node.id);
          message.success(t('common.deleted'));
        } catch {
          // refused (sub-departments or people): the API client showed the server's message
        }
      },
    });

  const onDrop: TreeProps['onDrop'] = (info) => {
    const place = dropPlaceOf({ dropToGap: info.dropToGap, dropPosition: info.dropPosition, pos: info.node.pos });
    const dragId = Number(info.dragNode.key);
    const plan = planMove(nodes, dragId, Number(info.node.key), place);
    if (!plan) return;
    const drag = findNode(nodes, dragId)!;
    const updates = [
      { id: plan.id, name: drag.name, parent_id: plan.parent_id, sort: plan.sort },
      ...plan.siblings.map((s) => ({ id: s.id, name: findNode(nodes, s.id)?.name ?? '', sort: s.sort })),
    ];
    // The tree shows server data only: on a refusal it simply stays as it was.
    move.mutate(updates, {
      onSuccess: () => {
        if (plan.parent_id) expand(pathTo(nodes, plan.parent_id));
        message.success(t('org.moved', { name: drag.name }));
      },
    });
  };

  const menuFor = (node: DepartmentNode) => ({
    items: [
      { key: 'add', icon: <PlusOutlined />, label: t('org.addChild') },
      { key: 'rename', icon: <EditOutlined />, label: t('org.rename') },
      { key: 'heads', icon: <TeamOutlined />, label: t('org.setHeads') },
      { type: 'divider' as const },
      { key: 'delete', icon: <DeleteOutlined />, label: t('common.actions.delete'), danger: true },
    ],
    onClick: ({ key, domEvent }: { key: string; domEvent: { stopPropagation: () => void } }) => {
      domEvent.stopPropagation();
      if (key === 'add') setDialog({ open: true, mode: 'create', parent: node });
      if (key === 'rename') setDialog({ open: true, mode: 'rename', node });
      if (key === 'heads') setDialog({ open: true, mode: 'heads', node });
      if (key === 'delete') confirmDelete(node);
    },
  });

  const toTreeData = (list: DepartmentNode[]): TreeDataNode[] =>
    list.map((n) => ({
      key: n.id,
      title: (
        <span className="fa-dept" data-testid="dept-node" data-dept={n.name} data-parent={n.parent_id}>
          <span className="fa-dept-name" title={n.name}>
            {n.name}
          </span>
          <Typography.Text type="secondary" className="fa-dept-total" data-testid="dept-total">
            ({n.total})
          </Typography.Text>
          {n.incharges.length > 0 && (
            <Tooltip title={`${t('org.headTag')}: ${n.incharges.map((p) => p.name).join(', ')}`}>
              <Tag color="blue" icon={<UserOutlined />} className="fa-dept-heads" aria-label={t('org.headTag')}>
                {n.incharges.map((p) => p.name).join(', ')}
              </Tag>
            </Tooltip>
          )}
          {canEdit && (
            <Dropdown menu={menuFor(n)} trigger={['click']}>
              <Button
                type="text"
                size="small"
                icon={<MoreOutlined />}
                className="fa-dept-more"
                aria-label={t('org.actions', { name: n.name })}
                data-testid="dept-actions"
                onClick={(e) => e.stopPropagation()}
              />
            </Dropdown>
          )}
        </span>
      ),
      children: toTreeData(n.children),
    }));

  return (
    <Row gutter={16} data-testid="organization-page">
      <Col xs={24} lg={8} xl={7}>
        <Card
          title={t('org.title')}
          extra={
            canEdit && (
              <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, mode: 'create' })} data-testid="dept-add-top">
                {t('org.addTop')}
              </Button>
            )
          }
          style={{ marginBottom: 16 }}
        >
          {canEdit && nodes.length > 0 && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('org.dragHint')}
            </Typography.Paragraph>
          )}
          {tree.error && <ErrorState compact={nodes.length > 0} error={tree.error} onRetry={tree.refetch} retrying={tree.isFetching} />}
          <Spin spinning={tree.isFetching || move.isPending}>
            {tree.error && nodes.length === 0 ? null : nodes.length === 0 && !tree.isPending ? (
              <Empty description={t('org.empty')} />
            ) : (
              <Tree
                blockNode
                showLine
                draggable={canEdit ? { icon: false } : false}
                treeData={toTreeData(nodes)}
                expandedKeys={expanded ?? []}
                onExpand={(keys) => setExpanded(keys.map(Number))}
                selectedKeys={selectedNode ? [selectedNode.id] : []}
                onSelect={(keys) => setSelected(keys.length ? Number(keys[0]) : undefined)}
                onDrop={onDrop}
                data-testid="dept-tree"
              />
            )}
          </Spin>
        </Card>
      </Col>
      <Col xs={24} lg={16} xl={17}>
        <Card
          title={
            <Space>
              {selectedNode ? selectedNode.name : t('org.allPeople')}
              {selectedNode && <Typography.Text type="secondary">{t('org.includesSub')}</Typography.Text>}
            </Space>
          }
        >
          <PersonTable departmentId={selectedNode?.id} place="organization" />
        </Card>
      </Col>
      <DepartmentDialog
        state={dialog}
        onClose={(createdId) => {
          if (createdId && dialog.open && dialog.mode === 'create' && dialog.parent) expand(pathTo(nodes, dialog.parent.id));
          if (createdId) message.success(t('common.saved'));
          setDialog({ open: false });
        }}
      />
    </Row>
  );
}
