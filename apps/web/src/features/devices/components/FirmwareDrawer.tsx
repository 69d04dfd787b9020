import { useState } from 'react';
import { App, Button, Drawer, Form, Input, Modal, Select, Space, Table, Tag, Typography, Upload, type TableProps } from 'antd';
import { CloudUploadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CODES, FIRMWARE_LIMITS, type Firmware, type FirmwareUpgrade } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ListPage, type ListAction, type ListColumn, type ListResult } from '../../../ui/ListPage.tsx';
import { deleteAction } from '../../../ui/listParts.tsx';
import { useDeleteFirmware, useDeviceOptions, useFirmware, useUpgrade, useUpgrades, useUploadFirmware } from '../api.ts';

interface Props {
  open: boolean;
  canEdit: boolean;
  /** devices chosen when opened from one device's menu */
  deviceIds?: number[] | undefined;
  onClose: () => void;
}

const STATE_COLORS: Record<FirmwareUpgrade['state'], string> = {
  queued: 'default',
  sent: 'processing',
  downloading: 'processing',
  rebooting: 'warning',
  done: 'success',
  failed: 'error',
};

const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Firmware (issue #20, spec §8): files uploaded once, sent to one or many terminals; each upgrade shows where it is
 * and the version before and after, or why the terminal refused. Upgrading restarts a door: the console asks first.
 */
export function FirmwareDrawer({ open, canEdit, deviceIds, onClose }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const firmware = useFirmware(open);
  const upgrades = useUpgrades(open);
  const devices = useDeviceOptions();
  const uploadFw = useUploadFirmware();
  const remove = useDeleteFirmware();
  const upgrade = useUpgrade();
  const [form] = Form.useForm<{ name: string; version: string }>();
  const [file, setFile] = useState<File>();
  const [target, setTarget] = useState<Firmware>();
  const [chosen, setChosen] = useState<number[]>([]);

  const doUpload = async () => {
    let v;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (!file) {
      message.error(t('device.fleet.fileRequired'));
      return;
    }
    try {
      await uploadFw.mutateAsync({ name: v.name, version: v.version, file });
      message.success(t('device.fleet.uploaded'));
      form.resetFields();
      setFile(undefined);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '');
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && (field === 'name' || field === 'version'))
        form.setFields([{ name: field, errors: [e.message] }]);
      message.error(e.message);
    }
  };

  /** spec: upgrading restarts each terminal (its door stops answering for a while): asked first. */
  const confirmUpgrade = () => {
    if (!target || !chosen.length) return;
    const names = (devices.data?.items ?? []).filter((d) => chosen.includes(d.id)).map((d) => d.name);
    modal.confirm({
      title: t('device.fleet.upgradeConfirm', { version: target.version, count: chosen.length }),
      content: t('device.fleet.upgradeConfirmHint', { names: names.join(', ') }),
      okText: t('device.fleet.upgrade'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await upgrade.mutateAsync({ firmware_id: target.id, device_ids: chosen });
          message.success(t('device.fleet.upgradeSent'));
          setTarget(undefined);
        } catch {
          // shown by the API client
        }
      },
    });
  };

  const fwColumns: ListColumn<Firmware>[] = [
    { title: t('device.fleet.name'), dataIndex: 'name', key: 'name' },
    { title: t('device.fleet.version'), dataIndex: 'version', key: 'version' },
    { title: t('device.fleet.size'), dataIndex: 'size', key: 'size', render: (v: number) => sizeOf(v) },
    {
      title: 'SHA-256',
      dataIndex: 'sha256',
      key: 'sha256',
      render: (v: string) => (
        <Typography.Text code copyable={{ text: v }} title={v}>
          {v.slice(0, 12)}
        </Typography.Text>
      ),
    },
    { title: t('device.fleet.uploadedAt'), dataIndex: 'created_at', key: 'created_at', render: (v: string) => formatDateTime(v) },
  ];
  const fwActions: ListAction<Firmware>[] = [
    {
      key: 'upgrade',
      label: t('device.fleet.upgrade'),
      icon: <CloudUploadOutlined />,
      look: 'primary',
      run: (f) => {
        // opened from one device's menu: that device is chosen already
        setChosen(deviceIds ?? []);
        setTarget(f);
      },
      testId: 'firmware-upgrade',
    },
    deleteAction<Firmware>(t, {
      confirm: (f) => ({ title: t('device.fleet.deleteConfirm', { name: f.name, version: f.version }) }),
      remove: (id) => remove.mutateAsync(id),
    }),
  ];
  const fwList: ListResult<Firmware> = {
    data: firmware.data ? { items: firmware.data } : undefined,
    isLoading: firmware.isLoading,
    isFetching: firmware.isFetching,
    error: firmware.error,
    refetch: firmware.refetch,
  };

  const upColumns: TableProps<FirmwareUpgrade>['columns'] = [
    { title: t('device.fleet.device'), dataIndex: 'device_name', key: 'device' },
    { title: t('device.fleet.firmware'), key: 'fw', render: (_, u) => `${u.firmware_name} ${u.firmware_version}` },
    {
      title: t('device.fleet.state'),
      key: 'state',
      render: (_, u) => (
        <Space orientation="vertical" size={2}>
          <Tag color={STATE_COLORS[u.state]} data-testid="upgrade-state">
            {t(`device.fleet.states.${u.state}`)}
          </Tag>
          {u.reason && <Typography.Text type="danger">{u.reason}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('device.fleet.versions'),
      key: 'versions',
      render: (_, u) => (
        <span data-testid="upgrade-versions">
          {u.version_before || '—'} → {u.version_after ?? '…'}
        </span>
      ),
    },
    { title: t('device.fleet.sentAt'), dataIndex: 'created_at', key: 'created_at', render: (v: string) => formatDateTime(v) },
  ];

  return (
    <Drawer title={t('device.fleet.title')} open={open} onClose={onClose} size="min(1000px, 100vw)" destroyOnHidden data-testid="firmware-drawer">
      {canEdit && (
        <Form form={form} layout="inline" style={{ marginBottom: 16, rowGap: 8 }}>
          <Form.Item name="name" rules={[{ required: true, whitespace: true, message: t('device.fleet.nameRequired') }, { max: FIRMWARE_LIMITS.nameMax }]}>
            <Input placeholder={t('device.fleet.name')} maxLength={FIRMWARE_LIMITS.nameMax} style={{ width: 180 }} data-testid="firmware-name" />
          </Form.Item>
          <Form.Item
            name="version"
            rules={[{ required: true, whitespace: true, message: t('device.fleet.versionRequired') }, { max: FIRMWARE_LIMITS.versionMax }]}
          >
            <Input placeholder={t('device.fleet.version')} maxLength={FIRMWARE_LIMITS.versionMax} style={{ width: 160 }} data-testid="firmware-version" />
          </Form.Item>
          <Form.Item>
            <Upload
              maxCount={1}
              beforeUpload={(f) => {
                if (f.size > FIRMWARE_LIMITS.maxBytes) message.error(t('device.fleet.tooLarge', { mb: FIRMWARE_LIMITS.maxBytes / 1024 / 1024 }));
                else setFile(f);
                return false;
              }}
              onRemove={() => setFile(undefined)}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />} data-testid="firmware-file">
                {t('device.fleet.chooseFile')}
              </Button>
            </Upload>
          </Form.Item>
          <Form.Item>
            <Button type="primary" loading={uploadFw.isPending} onClick={() => void doUpload()} data-testid="firmware-upload">
              {t('device.fleet.uploadAction')}
            </Button>
          </Form.Item>
        </Form>
      )}
      <ListPage<Firmware, object>
        bare
        testId="firmware-list"
        tableTestId="firmware-table"
        columns={fwColumns}
        actions={canEdit ? fwActions : []}
        list={fwList}
        paged={false}
        table={{ size: 'small' }}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('device.fleet.upgrades')}
      </Typography.Title>
      <Table<FirmwareUpgrade>
        rowKey="id"
        size="small"
        loading={upgrades.isLoading}
        dataSource={upgrades.data ?? []}
        columns={upColumns}
        pagination={{ pageSize: 10 }}
        scroll={{ x: 'max-content' }}
        data-testid="upgrade-table"
      />
      <Modal
        open={Boolean(target)}
        title={t('device.fleet.upgradeTitle', { name: target?.name ?? '', version: target?.version ?? '' })}
        okText={t('device.fleet.upgrade')}
        okButtonProps={{ disabled: !chosen.length, loading: upgrade.isPending }}
        cancelText={t('common.actions.cancel')}
        onOk={confirmUpgrade}
        onCancel={() => setTarget(undefined)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('device.fleet.upgradeHint')}</Typography.Paragraph>
        <Select
          mode="multiple"
          style={{ width: '100%' }}
          placeholder={t('device.fleet.chooseDevices')}
          aria-label={t('device.fleet.chooseDevices')}
          value={chosen}
          onChange={setChosen}
          maxCount={FIRMWARE_LIMITS.devicesMax}
          optionFilterProp="label"
          options={(devices.data?.items ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.version || '—'})` }))}
          data-testid="upgrade-devices"
        />
      </Modal>
    </Drawer>
  );
}
