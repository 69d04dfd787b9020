import { ListPage, useListQuery, type ListAction, type ListColumn } from '../../../ui/ListPage.tsx';
import { connectedList, deleteAction } from '../../../ui/listParts.tsx';
import { useState } from 'react';
import { App, Button, Space, Tag, Typography } from 'antd';
import {
  CloudUploadOutlined,
  EditOutlined,
  PlusOutlined,
  RadarChartOutlined,
  SettingOutlined,
  TeamOutlined,
  UnlockOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSystemConfig } from '../../../lib/session.ts';
import { awaitCommand, useDeleteDevice, useDeviceCommand, useDeviceRights, useDevices, useOpenDoor } from '../api.ts';
import { DeviceDialog } from '../components/DeviceDialog.tsx';
import { DeviceLogsDialog } from '../components/DeviceLogsDialog.tsx';
import { FirmwareDrawer } from '../components/FirmwareDrawer.tsx';
import { DeviceSettingsDrawer } from '../components/DeviceSettingsDrawer.tsx';
import { OnlineBadge, OpenStatusTag, StateTag, SyncSummaryText, UserCount } from '../components/DeviceStatus.tsx';
import { QueryPunchesDialog } from '../components/QueryPunchesDialog.tsx';
import { ScanDialog } from '../components/ScanDialog.tsx';
import type { CommandKind, CommandResult, Device, DeviceListQuery } from '@faceadmin/shared';

/** /device/list: face access-control devices (right `face`; writing needs face ≥ 2). */
export default function DeviceListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { canEdit } = useDeviceRights();
  const state = useListQuery<DeviceListQuery>({});
  const [dialog, setDialog] = useState<{ open: boolean; device?: Device | undefined }>({ open: false });
  const [settingsId, setSettingsId] = useState<number>();
  const [punchesFor, setPunchesFor] = useState<Device>();
  const [firmwareFor, setFirmwareFor] = useState<{ open: boolean; deviceIds?: number[] }>({ open: false });
  const [logsFor, setLogsFor] = useState<Device>();
  const [scanning, setScanning] = useState(false);
  // scanning the network is a LAN-mode tool (docs/lan-mode.md)
  const lan = useSystemConfig().data?.runMode === 'lan';
  const list = useDevices(state.query);
  const remove = useDeleteDevice();
  const openDoor = useOpenDoor();
  const command = useDeviceCommand();

  const items = list.data?.items ?? [];
  const settingsDevice = items.find((d) => d.id === settingsId);

  /** spec: the result of a device command — success, failure with its reason, or still waiting for the device. */
  const showResult = (r: CommandResult, successKey: string, key?: string) => {
    // With the key of the "waiting" message: it becomes the answer (closing it and opening another could leave the
    // waiting one on screen when the answer comes before it was shown).
    const k = key ? { key } : {};
    if (r.state === 'success') message.open({ ...k, type: 'success', content: t(successKey) });
    else if (r.state === 'failure') message.open({ ...k, type: 'error', content: t('device.result.failure', { reason: r.message || String(r.code ?? '') }) });
    else message.open({ ...k, type: 'info', content: t('device.result.pending') });
  };

  /** Open door: "sent, waiting for the terminal" at once, then the terminal's answer when its next poll brings it. */
  const doOpen = async (d: Device) => {
    const key = `open-${d.id}`;
    try {
      let r = await openDoor.mutateAsync(d.id);
      if (r.state === 'pending') {
        message.open({ key, type: 'loading', content: t('device.result.sentWaiting', { name: d.name }), duration: 0 });
        for (let round = 0; round < 3 && r.state === 'pending'; round++) r = await awaitCommand(r.command_id);
      }
      if (r.state === 'pending') message.open({ key, type: 'warning', content: t('device.result.noAnswer', { name: d.name }) });
      else showResult(r, 'device.result.opened', key);
    } catch {
      message.destroy(key);
      // shown by the API client
    }
  };

  const doCommand = async (d: Device, kind: CommandKind, range?: { from: string; to: string }) => {
    try {
      const r = await command.mutateAsync({ id: d.id, kind, ...(range ?? {}) });
      if (r.state === 'pending') message.success(t('device.result.queued'));
      else showResult(r, 'device.result.done');
      return true;
    } catch {
      return false;
    }
  };

  const columns: ListColumn<Device>[] = [
    // Second lines (serial and direction under the name, firmware under the address, an abnormal state under the
    // online status) keep every column in view at 1440 px (issue #9).
    {
      title: t('device.fields.name'),
      dataIndex: 'name',
      key: 'name',
      fixed: 'left',
      render: (name: string, d) => (
        <div className="fa-two-line">
          <span>{name}</span>
          <Space size={6}>
            <Typography.Text type="secondary" data-testid="device-serial">
              {d.serial}
            </Typography.Text>
            <Tag color={d.direction === 'out' ? 'orange' : 'blue'} data-testid="device-direction">
              {t(d.direction === 'out' ? 'device.direction.out' : 'device.direction.in')}
            </Tag>
          </Space>
        </div>
      ),
    },
    {
      title: t('device.fields.ip'),
      dataIndex: 'ip',
      key: 'ip',
      render: (ip: string, d) => (
        <div className="fa-two-line">
          {/* a dialled (ISAPI) terminal is reached at its port as well; its model comes with the firmware */}
          <span data-testid="device-address">{d.protocol === 'isapi' ? `${ip}:${d.port}` : ip}</span>
          <Typography.Text type="secondary" title={`${t('device.fields.model')} / ${t('device.fields.version')}`} data-testid="device-version">
            {[d.model, d.version].filter(Boolean).join(' ') || '—'}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('device.fields.online'),
      key: 'online',
      render: (_, d) => (
        <Space orientation="vertical" size={2}>
          <OnlineBadge device={d} />
          {d.state === 'abnormal' && <StateTag value={d.state} />}
          {d.problem && (
            // written out whole (it says what to do, e.g. correct the password), not cut to an ellipsis
            <Typography.Text type="danger" style={{ fontSize: 12, display: 'block', maxWidth: 260, whiteSpace: 'normal' }} data-testid="device-problem">
              {d.problem}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('device.fields.openStatus'), dataIndex: 'open_status', key: 'open_status', render: (v: Device['open_status']) => <OpenStatusTag value={v} /> },
    { title: t('device.fields.sync'), key: 'sync', render: (_, d) => <SyncSummaryText sync={d.sync} /> },
    {
      title: t('device.fields.users'),
      key: 'users',
      render: (_, d) => <UserCount device={d} />,
    },
  ];

  const readOnly = () => !canEdit;
  const menuCommand = (key: CommandKind, label: string): ListAction<Device> => ({
    key,
    label,
    inMenu: true,
    hidden: readOnly,
    run: (d) => doCommand(d, key),
  });
  const actions: ListAction<Device>[] = [
    {
      key: 'open',
      label: t('device.actions.open'),
      icon: <UnlockOutlined />,
      look: 'primary',
      hidden: readOnly,
      loading: (d) => openDoor.isPending && openDoor.variables === d.id,
      run: (d) => doOpen(d),
      testId: 'device-open',
    },
    {
      key: 'people',
      label: t('device.actions.people'),
      icon: <TeamOutlined />,
      look: 'icon',
      run: (d) => navigate(`/device/personManage/${d.id}`),
      testId: 'device-people',
    },
    {
      key: 'settings',
      label: t('device.actions.settings'),
      icon: <SettingOutlined />,
      look: 'icon',
      run: (d) => setSettingsId(d.id),
      testId: 'device-settings',
    },
    { key: 'edit', label: t('common.actions.edit'), icon: <EditOutlined />, inMenu: true, hidden: readOnly, run: (d) => setDialog({ open: true, device: d }) },
    menuCommand('info', t('device.actions.info')),
    { ...menuCommand('reboot', t('device.actions.reboot')), confirm: (d) => ({ title: t('device.rebootConfirm', { name: d.name }) }) },
    { key: 'queryPunches', label: t('device.actions.queryPunches'), inMenu: true, hidden: readOnly, run: (d) => setPunchesFor(d) },
    menuCommand('check', t('device.actions.check')),
    // issue #30: taking over a working site starts by reading what the terminal holds
    { key: 'takeOver', label: t('device.actions.takeOver'), inMenu: true, hidden: readOnly, run: (d) => navigate(`/device/roster/${d.id}`) },
    { key: 'logs', label: t('device.fleet.logs'), inMenu: true, hidden: readOnly, run: (d) => setLogsFor(d) },
    { key: 'upgrade', label: t('device.fleet.upgrade'), inMenu: true, hidden: readOnly, run: (d) => setFirmwareFor({ open: true, deviceIds: [d.id] }) },
    deleteAction<Device>(t, {
      inMenu: true,
      hidden: readOnly,
      confirm: (d) => ({ title: t('device.deleteConfirm', { name: d.name }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];

  return (
    <ListPage<Device, DeviceListQuery>
      title={t('route.deviceList')}
      {...connectedList<Device, DeviceListQuery>(t, 'device')}
      columns={columns}
      actions={actions}
      state={state}
      list={list}
      toolbar={
        <>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="device-create">
              {t('device.create')}
            </Button>
          )}
          {canEdit && (
            // issue #30: every terminal of a working site reviewed together, one person a number
            <Button icon={<UsergroupAddOutlined />} onClick={() => void navigate('/device/takeover')} data-testid="device-takeover">
              {t('device.takeover.open')}
            </Button>
          )}
          {canEdit && lan && (
            <Button icon={<RadarChartOutlined />} onClick={() => setScanning(true)} data-testid="device-scan">
              {t('device.scan.open')}
            </Button>
          )}
          <Button icon={<CloudUploadOutlined />} onClick={() => setFirmwareFor({ open: true })} data-testid="device-firmware">
            {t('device.fleet.title')}
          </Button>
        </>
      }
      notice={items.some((d) => d.state === 'abnormal') && <Typography.Paragraph type="warning">{t('device.abnormalHint')}</Typography.Paragraph>}
    >
      <DeviceDialog open={dialog.open} device={dialog.device} onClose={() => setDialog({ open: false })} />
      <DeviceSettingsDrawer device={settingsDevice} canEdit={canEdit} onClose={() => setSettingsId(undefined)} />
      <FirmwareDrawer open={firmwareFor.open} deviceIds={firmwareFor.deviceIds} canEdit={canEdit} onClose={() => setFirmwareFor({ open: false })} />
      <DeviceLogsDialog device={logsFor} canEdit={canEdit} onClose={() => setLogsFor(undefined)} />
      <ScanDialog open={scanning} onClose={() => setScanning(false)} />
      <QueryPunchesDialog
        open={Boolean(punchesFor)}
        loading={command.isPending}
        onCancel={() => setPunchesFor(undefined)}
        onOk={(from, to) => {
          if (!punchesFor) return;
          void doCommand(punchesFor, 'queryPunches', { from, to }).then((ok) => ok && setPunchesFor(undefined));
        }}
      />
    </ListPage>
  );
}
