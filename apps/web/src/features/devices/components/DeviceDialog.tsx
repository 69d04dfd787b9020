import { useEffect } from 'react';
import { App, Button, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Tooltip, Typography } from 'antd';
import { WifiOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { CODES, type Device } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ruleSet } from '../../../ui/rules.ts';
import { useSaveDevice, useUnknownTerminals } from '../api.ts';
import { deviceToValues, emptyDeviceValues, formatTzOffset, SERIAL_PATTERN, TZ_OFFSETS, valuesToDeviceBody, type DeviceFormValues } from '../logic.ts';

interface Props {
  open: boolean;
  /** undefined = add */
  device: Device | undefined;
  onClose: () => void;
}

/** Add / edit a face device: every field of docs/api-devices.md, spec §5 validation (name, serial, IP, password required). */
export function DeviceDialog({ open, device, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<DeviceFormValues>();
  const save = useSaveDevice();
  const editing = Boolean(device);
  const unknown = useUnknownTerminals(open && !editing);
  const attendance = Form.useWatch('attendance', form);
  const protocol = Form.useWatch('protocol', form);
  const dialled = protocol === 'isapi';
  const { required, ip } = ruleSet(t);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(device ? deviceToValues(device) : emptyDeviceValues(-new Date().getTimezoneOffset()));
  }, [open, device, form]);

  const submit = async () => {
    let v: DeviceFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ id: device?.id, body: valuesToDeviceBody(v, editing) });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const field = (e.data as { field?: string } | null)?.field?.replace(/^\/+/, '');
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && field) form.setFields([{ name: field as keyof DeviceFormValues, errors: [e.message] }]);
      else if (e.code === CODES.CONFLICT) form.setFields([{ name: 'serial', errors: [e.message] }]);
      message.error(e.message);
    }
  };

  const terminals = unknown.data ?? [];

  return (
    <SaveModal
      title={editing ? t('device.edit') : t('device.create')}
      open={open}
      onClose={onClose}
      onSave={() => void submit()}
      saving={save.isPending}
      testId="device-save"
      width={720}
    >
      {!editing && terminals.length > 0 && (
        <div style={{ marginBottom: 16 }} data-testid="device-unknown">
          <Typography.Text type="secondary">{t('device.unknown.hint')}</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Space wrap>
              {terminals.map((u) => (
                <Tooltip key={u.serial} title={t('device.unknown.seen', { time: formatDateTime(u.last_seen_at), count: u.requests })}>
                  <Button
                    size="small"
                    icon={<WifiOutlined />}
                    data-testid="device-unknown-choice"
                    onClick={() => {
                      form.setFieldsValue({ serial: u.serial, ip: u.ip });
                      if (!form.getFieldValue('name')) form.setFieldValue('name', u.serial);
                      void form.validateFields(['serial', 'ip']).catch(() => undefined);
                    }}
                  >
                    {u.serial} {u.ip ? `(${u.ip})` : ''}
                  </Button>
                </Tooltip>
              ))}
            </Space>
          </div>
        </div>
      )}
      <Form form={form} layout="vertical" autoComplete="off" data-testid="device-form">
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="protocol" label={t('device.fields.protocol')} extra={t(dialled ? 'device.protocol.isapiHint' : 'device.protocol.zkPushHint')}>
              <Radio.Group
                data-testid="device-protocol"
                options={[
                  { value: 'zk-push', label: t('device.protocol.zkPush') },
                  { value: 'isapi', label: t('device.protocol.isapi') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t('device.fields.name')} rules={[required, { whitespace: true, message: t('common.validation.required') }]}>
              <Input maxLength={60} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="serial" label={t('device.fields.serial')} rules={[required, { pattern: SERIAL_PATTERN, message: t('device.validation.serial') }]}>
              <Input maxLength={32} />
            </Form.Item>
          </Col>
          <Col xs={dialled ? 16 : 24} md={dialled ? 8 : 12}>
            <Form.Item name="ip" label={t('device.fields.ip')} rules={[required, ip]}>
              <Input maxLength={45} />
            </Form.Item>
          </Col>
          {dialled && (
            <Col xs={8} md={4}>
              <Form.Item name="port" label={t('device.fields.port')} rules={[required]}>
                <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} data-testid="device-port" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            {/* ISAPI: the account the server signs in to the terminal with (the terminal's own administrator) */}
            <Form.Item name="account" label={t('device.fields.account')} rules={dialled ? [required] : []}>
              <Input maxLength={40} placeholder={dialled ? 'admin' : undefined} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="password" label={t('device.fields.password')} rules={editing ? [] : [required]}>
              <Input.Password maxLength={40} autoComplete="new-password" placeholder={editing ? t('device.passwordKeep') : undefined} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="capacity" label={t('device.fields.capacity')} extra={dialled ? t('device.protocol.capacityHint') : undefined}>
              <InputNumber min={1} max={1_000_000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="direction" label={t('device.fields.direction')}>
              <Radio.Group
                options={[
                  { value: 'in', label: t('device.direction.in') },
                  { value: 'out', label: t('device.direction.out') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="tz_offset" label={t('device.fields.tzOffset')}>
              <Select showSearch options={TZ_OFFSETS.map((m) => ({ value: m, label: formatTzOffset(m) }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="function_type" label={t('device.fields.functionType')} extra={t('device.functionType.hint')}>
              <Radio.Group
                options={[
                  { value: 'attendance', label: t('device.functionType.attendance') },
                  { value: 'dualAuth', label: t('device.functionType.dualAuth') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="attendance" label={t('device.fields.attendance')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="restrict_inout" label={t('device.fields.restrictInout')} valuePropName="checked" tooltip={t('device.restrictHint')}>
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="upload_face_image" label={t('device.fields.uploadFaceImage')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="upload_strangers" label={t('device.fields.uploadStrangers')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="attendance_scope" label={t('device.fields.attendanceScope')} hidden={!attendance}>
              <Radio.Group
                options={[
                  { value: 'selected', label: t('device.scope.selected') },
                  { value: 'all', label: t('device.scope.all') },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </SaveModal>
  );
}
