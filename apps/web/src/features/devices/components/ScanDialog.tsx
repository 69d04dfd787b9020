import { useState } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CODES, type DeviceScanAnswer, type DeviceScanHit } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useSaveDevice, useScanNetwork } from '../api.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

interface ScanValues {
  range: string;
  port: number;
  account: string;
  password: string;
}

const DEFAULTS: ScanValues = { range: '', port: 80, account: 'admin', password: '' };

/**
 * "Scan the network" (issue #20 LAN mode): the ISAPI terminals of an address range, each added with one click using
 * the account and password the scan used. ZK terminals are not scanned: they call the server (the add dialog lists them).
 */
export function ScanDialog({ open, onClose }: Props) {
  const { t } = useTranslation();
  // The content mounts with the dialog: each opening starts from an empty form and no results.
  return (
    <Modal title={t('device.scan.title')} open={open} onCancel={onClose} footer={null} width={860} destroyOnHidden data-testid="scan-dialog">
      {open && <ScanContent />}
    </Modal>
  );
}

function ScanContent() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ScanValues>();
  const scan = useScanNetwork();
  const save = useSaveDevice();
  const [answer, setAnswer] = useState<DeviceScanAnswer>();
  const [used, setUsed] = useState<ScanValues>(DEFAULTS);
  const [added, setAdded] = useState<Record<string, number>>({});
  const [adding, setAdding] = useState<string>();

  const run = async () => {
    let v: ScanValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      const body = { range: v.range.trim(), port: v.port, ...(v.password ? { account: v.account.trim() || 'admin', password: v.password } : {}) };
      setAnswer(await scan.mutateAsync(body));
      setUsed(v);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '');
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && field && field in DEFAULTS)
        form.setFields([{ name: field as keyof ScanValues, errors: [e.message] }]);
      message.error(e.message);
    }
  };

  const key = (h: DeviceScanHit) => `${h.ip}:${h.port}`;
  const add = async (h: DeviceScanHit) => {
    setAdding(key(h));
    try {
      const d = await save.mutateAsync({
        body: {
          name: `${h.model || 'ISAPI'} ${h.ip}`.slice(0, 60),
          serial: h.serial,
          protocol: 'isapi',
          ip: h.ip,
          port: h.port,
          account: used.account.trim() || 'admin',
          password: used.password,
          tz_offset: -new Date().getTimezoneOffset(),
        },
      });
      setAdded((a) => ({ ...a, [key(h)]: (d as { id: number }).id }));
      message.success(t('device.scan.added', { name: h.model || h.ip }));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      message.error(e.message);
    } finally {
      setAdding(undefined);
    }
  };

  const status = (h: DeviceScanHit) => {
    if (h.device_id || added[key(h)]) return <Tag color="blue">{t('device.scan.already')}</Tag>;
    if (h.auth === 'wrongPassword') return <Tag color="red">{t('device.scan.wrongPassword')}</Tag>;
    if (h.auth === 'noPassword') return <Tag>{t('device.scan.noPassword')}</Tag>;
    return (
      <Button
        size="small"
        type="primary"
        icon={<PlusOutlined />}
        loading={adding === key(h)}
        onClick={() => void add(h)}
        data-testid="scan-add"
        disabled={!h.serial}
      >
        {t('device.scan.add')}
      </Button>
    );
  };

  return (
    <>
      <Form form={form} layout="inline" initialValues={DEFAULTS} onFinish={() => void run()} style={{ rowGap: 8 }}>
        <Form.Item name="range" label={t('device.scan.range')} rules={[{ required: true, whitespace: true, message: t('device.scan.rangeRequired') }]}>
          <Input placeholder="192.168.1.10-192.168.1.60" style={{ width: 230 }} data-testid="scan-range" />
        </Form.Item>
        <Form.Item name="port" label={t('device.scan.port')} rules={[{ required: true, message: t('device.scan.portRequired') }]}>
          <InputNumber min={1} max={65535} precision={0} style={{ width: 90 }} data-testid="scan-port" />
        </Form.Item>
        <Form.Item name="account" label={t('device.scan.account')}>
          <Input style={{ width: 110 }} autoComplete="off" data-testid="scan-account" />
        </Form.Item>
        <Form.Item name="password" label={t('device.scan.password')}>
          <Input.Password style={{ width: 150 }} autoComplete="new-password" data-testid="scan-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={scan.isPending} data-testid="scan-run">
            {t('device.scan.run')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('device.scan.hint')}
      </Typography.Paragraph>
      {answer && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text data-testid="scan-summary">
            {t('device.scan.summary', { count: answer.found.length, scanned: answer.scanned, seconds: (answer.ms / 1000).toFixed(1) })}
          </Typography.Text>
          <Table<DeviceScanHit>
            rowKey={key}
            size="small"
            pagination={false}
            dataSource={answer.found}
            data-testid="scan-results"
            locale={{ emptyText: t('device.scan.none') }}
            columns={[
              { title: t('device.scan.address'), key: 'ip', render: (_, h) => key(h) },
              { title: t('device.scan.model'), dataIndex: 'model', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v || '—'}</span> },
              { title: t('device.scan.serial'), dataIndex: 'serial', render: (v: string) => v || '—' },
              { title: t('device.scan.firmware'), dataIndex: 'firmware', render: (v: string) => v || '—' },
              { title: '', key: 'action', render: (_, h) => status(h) },
            ]}
          />
        </Space>
      )}
    </>
  );
}
