import { useEffect, useState } from 'react';
import { App, Avatar, Button, Checkbox, Image, Popover, Space, Typography } from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  ImportOutlined,
  LinkOutlined,
  PlusOutlined,
  SettingOutlined,
  SwapOutlined,
  SyncOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CODES, WORK_STATUS, type Person, type PersonExportBody, type PersonListQuery } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { DateTime } from '../../../ui/DateTime.tsx';
import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { useSyncPersons } from '../../devices/api.ts';
import { useAdminLinks, useDeletePersons, useErasePerson, useExportPersons, useMarkLeft, usePersonRights, usePersons } from '../api.ts';
import { FIXED_COLUMNS, loadHiddenColumns, PERSON_COLUMNS, saveHiddenColumns, toggleColumn, type ColumnsPlace, type PersonColumn } from '../columns.ts';
import { useUserInfo } from '../../../lib/session.ts';
import { AdminLinkDialog } from './AdminLinkDialog.tsx';
import { DepartmentSelect } from './DepartmentSelect.tsx';
import { PersonImportDialog } from './PersonImportDialog.tsx';
import { PersonDrawer } from './PersonDrawer.tsx';
import { PersonTags, SYNC_OPTIONS, SyncStatus } from './tags.tsx';
import { TransferDialog } from './TransferDialog.tsx';

interface Props {
  /** Fixed department (organization page): its people including sub-departments; the department filter is hidden. */
  departmentId?: number | undefined;
  /** Which page shows the table: each keeps its own column choice (columns.ts). */
  place?: ColumnsPlace;
}

type Filters = Omit<PersonListQuery, 'page' | 'pageSize'>;

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/** The people table shared by /user/list and /user/organization: filters, sorting, columns, batch actions. */
export function PersonTable({ departmentId, place = 'list' }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { canEdit } = usePersonRights();
  const state = useListQuery<Filters>({});
  const [selected, setSelected] = useState<number[]>([]);
  const [hidden, setHidden] = useState<PersonColumn[]>(() => loadHiddenColumns(storage(), place));
  const [drawer, setDrawer] = useState<{ open: boolean; person?: Person | undefined }>({ open: false });
  const [importOpen, setImportOpen] = useState(false);
  const navigate = useNavigate();
  const [transferOpen, setTransferOpen] = useState(false);
  const user = useUserInfo().data;
  // spec §7 bindAdmin: main administrators link people to administrator accounts
  const isMain = user?.roles[0] === 'main';
  const links = useAdminLinks(isMain);
  const linkOf = new Map((links.data?.items ?? []).map((l) => [l.person_id, l]));
  const [linking, setLinking] = useState<Person | null>(null);

  // The organization page changes department: back to page 1 (a page kept in the URL stays on a reload), nothing
  // selected. The new department is read from page 1 at once; the URL follows after the render.
  const [shownDepartment, setShownDepartment] = useState(departmentId);
  const departmentChanged = shownDepartment !== departmentId;
  useEffect(() => {
    if (!departmentChanged) return;
    state.setFilters({});
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL (the paging) is the outside system this follows
    setShownDepartment(departmentId);
    setSelected([]);
  }, [departmentChanged, departmentId, state]);
  const query = departmentChanged ? { ...state.query, page: 1 } : state.query;
  const effective = departmentId ? { ...query, department_id: departmentId, include_sub: 1 as const } : query;
  const list = usePersons(effective);
  const remove = useDeletePersons();
  const markLeft = useMarkLeft();
  const erase = useErasePerson();
  const sync = useSyncPersons();
  const exportList = useExportPersons();

  const filters: PersonExportBody = {
    keyword: effective.keyword,
    department_id: effective.department_id,
    include_sub: effective.department_id ? 1 : undefined,
    workStatus: effective.workStatus,
    sync_status: effective.sync_status,
  };

  const setHiddenColumns = (next: PersonColumn[]) => {
    setHidden(next);
    saveHiddenColumns(storage(), next, place);
  };

  // Tags sit under the name (their own column did not leave room at 1440 px); the Tags switch still hides them.
  const showTags = !hidden.includes('tags');
  const all: Record<Exclude<PersonColumn, 'tags'>, ListColumn<Person>> = {
    photo: {
      title: t('person.columns.photo'),
      key: 'photo',
      width: 56,
      render: (_, row) =>
        row.pic_url ? (
          <Image src={row.pic_url} width={36} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} alt={row.name} data-testid="person-photo" />
        ) : (
          <Avatar shape="square" size={36} icon={<UserOutlined />} />
        ),
    },
    number: { title: t('person.fields.number'), dataIndex: 'number', key: 'number', sortable: true },
    name: {
      title: t('person.fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 215,
      sortable: true,
      render: (name: string, row) => (
        <div className="fa-person-name">
          <div>{name}</div>
          {showTags && row.tags.length > 0 && <PersonTags tags={row.tags} />}
          {linkOf.has(row.id) && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="person-admin-link">
              <LinkOutlined /> {linkOf.get(row.id)!.username}
            </Typography.Text>
          )}
        </div>
      ),
    },
    organizations: {
      title: t('person.fields.organizations'),
      key: 'organizations',
      ellipsis: { showTitle: true },
      width: 160,
      render: (_, row) => row.organizations.map((o) => o.name).join(', '),
    },
    phone: { title: t('person.fields.phone'), dataIndex: 'phone', key: 'phone' },
    rfid: { title: t('person.fields.rfid'), dataIndex: 'rfid', key: 'rfid' },
    sync_status: { title: t('person.fields.syncStatus'), dataIndex: 'sync_status', key: 'sync_status', render: (v: number) => <SyncStatus value={v} /> },
    updated_at: {
      title: t('person.fields.updatedAt'),
      dataIndex: 'updated_at',
      key: 'updated_at',
      sortable: true,
      render: (v: string) => <DateTime value={v} />,
    },
  };

  const columns: ListColumn<Person>[] = PERSON_COLUMNS.filter((c) => c !== 'tags' && !hidden.includes(c)).map((c) => all[c as Exclude<PersonColumn, 'tags'>]);

  const deleteOne = async (row: Person) => {
    try {
      await remove.mutateAsync([row.id]);
      setSelected((s) => s.filter((id) => id !== row.id));
      message.success(t('common.deleted'));
    } catch (e) {
      // someone with history is not deleted: offered "left" (or erasing) instead
      if (e instanceof ApiError && e.code === CODES.CONFLICT) offerLeft(row, e.message);
      else if (e instanceof ApiError) message.error(e.message);
    }
  };
  const actions: ListAction<Person>[] = [
    {
      key: 'edit',
      label: t('common.actions.edit'),
      icon: <EditOutlined />,
      look: 'icon',
      hidden: () => !canEdit,
      run: (row) => setDrawer({ open: true, person: row }),
      testId: 'person-edit',
    },
    {
      key: 'adminLink',
      label: t('person.adminLink.action'),
      icon: <LinkOutlined />,
      look: 'icon',
      hidden: () => !canEdit || !isMain,
      run: (row) => setLinking(row),
      testId: 'person-admin-link-open',
    },
    {
      key: 'delete',
      label: t('common.actions.delete'),
      icon: <DeleteOutlined />,
      danger: true,
      // three icon buttons: every column still fits at 1440 px
      look: 'icon',
      hidden: () => !canEdit,
      confirm: (row) => ({ title: t('person.deleteConfirm', { name: row.name }) }),
      run: deleteOne,
      testId: 'person-delete',
    },
  ];

  /** A privacy request, asked with its consequence: the person becomes "Erased #id", their records stay. */
  const askErase = (row: Person) =>
    modal.confirm({
      title: t('person.history.eraseTitle', { name: row.name }),
      content: t('person.history.eraseContent', { id: row.id }),
      okText: t('person.history.eraseOk'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        await erase.mutateAsync(row.id);
        setSelected((s) => s.filter((id) => id !== row.id));
        message.success(t('person.history.erased'));
      },
    });

  /** Delete refused because of history: mark as left instead (or erase, asked again). */
  const offerLeft = (row: Person, reason: string) => {
    const left = row.workStatus === WORK_STATUS.left;
    const dialog = modal.confirm({
      title: t('person.history.title', { name: row.name }),
      content: (
        <>
          <p>{reason}</p>
          <p>{t(left ? 'person.history.alreadyLeft' : 'person.history.content')}</p>
        </>
      ),
      okText: t('person.history.markLeft'),
      cancelText: t('common.actions.cancel'),
      footer: (_, { OkBtn, CancelBtn }) => (
        <Space wrap>
          <Button
            danger
            data-testid="person-erase"
            onClick={() => {
              dialog.destroy();
              askErase(row);
            }}
          >
            {t('person.history.erase')}
          </Button>
          <CancelBtn />
          {!left && <OkBtn />}
        </Space>
      ),
      onOk: async () => {
        await markLeft.mutateAsync(row);
        message.success(t('person.history.markedLeft'));
      },
    });
  };

  const batchDelete = () =>
    modal.confirm({
      title: t('person.batchDeleteTitle'),
      content: t('person.batchDeleteConfirm', { count: selected.length }),
      okText: t('common.actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          const r = await remove.mutateAsync(selected);
          setSelected([]);
          message.success(t('person.deletedCount', { count: r.count }));
        } catch (e) {
          // Some have history: nobody was deleted; the message names them and says what to do instead.
          if (e instanceof ApiError && e.code === CODES.CONFLICT) modal.warning({ title: t('person.history.titleMany'), content: e.message });
          else if (e instanceof ApiError) message.error(e.message);
        }
      },
    });

  /** POST /person/sync; spec §8: when devices are offline, ask whether to skip them (then call again with skip_offline). */
  const doSync = async (skipOffline: boolean): Promise<void> => {
    try {
      const r = await sync.mutateAsync({ ids: selected, skipOffline });
      if (!skipOffline && r.offline.length) {
        modal.confirm({
          title: t('person.syncOffline.title'),
          content: (
            <div data-testid="sync-offline">
              <p>{t('person.syncOffline.question')}</p>
              <ul style={{ paddingInlineStart: 20, margin: 0 }}>
                {r.offline.map((d) => (
                  <li key={d.id}>{d.name}</li>
                ))}
              </ul>
            </div>
          ),
          okText: t('person.syncOffline.skip'),
          cancelText: t('common.actions.cancel'),
          onOk: () => doSync(true),
        });
        return;
      }
      message.success(
        t('person.syncDone', { people: t('common.count.people', { count: r.people }), devices: t('common.count.devices', { count: r.devices }) }),
      );
    } catch (e) {
      // the call is silent (spec §7): timeouts show nothing, anything else says the sync failed
      if (e instanceof ApiError && e.kind !== 'timeout') message.error(e.kind === 'api' ? e.message : t('person.syncFailed'));
    }
  };

  const columnSettings = (
    <Space orientation="vertical" data-testid="column-settings">
      {PERSON_COLUMNS.map((c) => (
        <Checkbox
          key={c}
          checked={!hidden.includes(c)}
          disabled={FIXED_COLUMNS.includes(c)}
          onChange={(e) => setHiddenColumns(toggleColumn(hidden, c, e.target.checked))}
        >
          {t(`person.columns.${c}`)}
        </Checkbox>
      ))}
      <Button size="small" type="link" onClick={() => setHiddenColumns([])} style={{ padding: 0 }}>
        {t('person.columnsReset')}
      </Button>
    </Space>
  );

  return (
    <ListPage<Person, Filters>
      bare
      testId="person-table"
      tableTestId="person-rows"
      cardTitle="name"
      columns={columns}
      actions={canEdit ? actions : []}
      state={state}
      list={list}
      filters={[
        { kind: 'keyword', param: 'keyword', placeholder: t('person.keyword'), width: 220, testId: 'person-keyword' },
        ...(departmentId
          ? []
          : [
              {
                kind: 'custom' as const,
                testId: 'person-department-filter',
                render: (set: (values: Partial<Filters>) => void) => (
                  <DepartmentSelect
                    allowClear
                    placeholder={t('person.fields.organizations')}
                    style={{ width: 200 }}
                    onChange={(department_id?: number) => set({ department_id, include_sub: department_id ? 1 : undefined })}
                    data-testid="person-department-filter"
                  />
                ),
              },
            ]),
        {
          kind: 'select',
          param: 'workStatus',
          placeholder: t('person.fields.workStatus'),
          width: 140,
          options: [
            { value: WORK_STATUS.working, label: t('person.workStatus.working') },
            { value: WORK_STATUS.left, label: t('person.workStatus.left') },
          ],
          testId: 'person-work-filter',
        },
        {
          kind: 'select',
          param: 'sync_status',
          placeholder: t('person.fields.syncStatus'),
          width: 140,
          options: SYNC_OPTIONS.map((o) => ({ value: o.value, label: t(`person.sync.${o.key}`) })),
          testId: 'person-sync-filter',
        },
      ]}
      toolbar={
        <>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ open: true })} data-testid="person-create">
              {t('person.create')}
            </Button>
          )}
          {canEdit && (
            <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)} data-testid="person-import">
              {t('person.import.button')}
            </Button>
          )}
          {canEdit && (
            // issue #30: the old software's exports of employees and punches (/user/legacy)
            <Button icon={<ImportOutlined />} onClick={() => void navigate('/user/legacy')} data-testid="person-legacy">
              {t('person.legacy')}
            </Button>
          )}
          <Button icon={<DownloadOutlined />} loading={exportList.isPending} onClick={() => exportList.mutate(filters)} data-testid="person-export">
            {t('person.export')}
          </Button>
          {canEdit && (
            <Button icon={<SwapOutlined />} disabled={!selected.length} onClick={() => setTransferOpen(true)} data-testid="person-transfer">
              {t('person.transfer.button')}
            </Button>
          )}
          {canEdit && (
            <Button icon={<SyncOutlined />} disabled={!selected.length} loading={sync.isPending} onClick={() => void doSync(false)} data-testid="person-sync">
              {t('person.sync.button')}
            </Button>
          )}
          {canEdit && (
            <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={batchDelete} data-testid="person-batch-delete">
              {t('person.batchDelete')}
            </Button>
          )}
          {selected.length > 0 && <Typography.Text type="secondary">{t('person.selectedCount', { count: selected.length })}</Typography.Text>}
          <Popover content={columnSettings} title={t('person.columnsTitle')} trigger="click" placement="bottomRight">
            <Button icon={<SettingOutlined />} aria-label={t('person.columnsTitle')} data-testid="person-columns" />
          </Popover>
        </>
      }
      table={
        canEdit ? { rowSelection: { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as number[]) } } : undefined
      }
    >
      <AdminLinkDialog person={linking} links={links.data} companyId={user?.company ?? 0} onClose={() => setLinking(null)} />
      <PersonDrawer open={drawer.open} person={drawer.person} departmentId={departmentId} onClose={() => setDrawer({ open: false })} />
      <PersonImportDialog open={importOpen} onClose={() => setImportOpen(false)} />
      <TransferDialog
        open={transferOpen}
        ids={selected}
        onClose={(done) => {
          setTransferOpen(false);
          if (done) setSelected([]);
        }}
      />
    </ListPage>
  );
}
