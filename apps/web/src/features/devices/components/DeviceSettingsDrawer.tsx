import { useEffect, type ReactNode } from 'react';
import { App, Button, Col, Drawer, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Tabs, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ALCOHOL_ACTIONS, ALCOHOL_UNITS, type Device, type DeviceOptions, type DeviceSpecial } from '@faceadmin/shared';
import { useQueryClient } from '@tanstack/react-query';
import { awaitCommand, deviceKeys, useDeviceCommand, useSaveOptions } from '../api.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { ruleSet } from '../../../ui/rules.ts';
import { changedKeys, formatTzOffset, OPTION_DEFAULTS, OPTION_RANGES, SPECIAL_RANGES, TZ_OFFSETS } from '../logic.ts';

interface Props {
  device: Device | undefined;
  canEdit: boolean;
  onClose: () => void;
}

interface Values {
  options: Required<DeviceOptions>;
  /** switches are booleans in the form */
  flags: Record<FlagKey, boolean>;
  special: DeviceSpecial;
}

const FLAG_KEYS = ['voice_mute', 'tempratureEnable', 'allowvisit', 'autoface', 'facial', 'alcohol_enable'] as const;
type FlagKey = (typeof FLAG_KEYS)[number];

/**
 * What the terminal reported for the "Other" settings (issue #9 item 9), in the form's types: shown where
 * nothing was set from the console, so the tab shows the terminal's own values instead of blanks.
 */
function reportedSpecial(d: Device): DeviceSpecial {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(d.reported ?? {})) out[key] = key in SPECIAL_RANGES && /^-?\d+$/.test(value) ? Number(value) : value;
  return out;
}

/** spec §2/§3: the device's configuration tabs (device config, common, other, alcohol, people). Save queues SET OPTION commands. */
export function DeviceSettingsDrawer({ device, canEdit, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const save = useSaveOptions();
  const queryClient = useQueryClient();
  const rules = ruleSet(t);
  const open = Boolean(device);
  const read = useDeviceCommand();

  /** Asks the terminal for its settings (INFO); the list refreshes with what it reports. */
  const readFromDevice = async (d: Device) => {
    try {
      let r = await read.mutateAsync({ id: d.id, kind: 'info' });
      for (let round = 0; round < 3 && r.state === 'pending'; round++) r = await awaitCommand(r.command_id);
      if (r.state === 'success') {
        await queryClient.invalidateQueries({ queryKey: deviceKeys.all });
        message.success(t('device.settings.readDone'));
      } else if (r.state === 'failure') message.error(t('device.result.failure', { reason: r.message }));
      else message.warning(t('device.result.noAnswer', { name: d.name }));
    } catch {
      // shown by the API client
    }
  };

  const initial = (d: Device): Values => {
    const options = { ...OPTION_DEFAULTS, ...d.options };
    return {
      options,
      flags: Object.fromEntries(FLAG_KEYS.map((k) => [k, Boolean(options[k])])) as Record<FlagKey, boolean>,
      special: { ...reportedSpecial(d), ...d.special },
    };
  };

  // Newly reported values (after "read from device") fill the fields still empty, keeping what is being typed.
  const reportedAt = device?.reported_at;
  useEffect(() => {
    if (!device || !reportedAt) return;
    const current = (form.getFieldValue('special') ?? {}) as Record<string, unknown>;
    const fill = Object.fromEntries(
      Object.entries(reportedSpecial(device)).filter(([k]) => current[k] === undefined || current[k] === null || current[k] === ''),
    );
    if (Object.keys(fill).length) form.setFieldsValue({ special: { ...current, ...fill } as DeviceSpecial });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reportedAt]);

  useEffect(() => {
    if (!device) return;
    form.resetFields();
    form.setFieldsValue(initial(device));
    // only when another device is opened, not on every list refresh
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [device?.id, form]);

  const submit = async () => {
    if (!device) return;
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const before = initial(device);
    const options: DeviceOptions = { ...before.options, ...v.options };
    for (const k of FLAG_KEYS) options[k] = v.flags[k] ? 1 : 0;
    const special: DeviceSpecial = { ...v.special };
    // against the defaults-filled values: keys the device never reported but left at the default are not worth a command
    const changedOptions = changedKeys<DeviceOptions>(before.options, options);
    const changedSpecial = changedKeys<DeviceSpecial>(before.special, special);
    if (!Object.keys(changedOptions).length && !Object.keys(changedSpecial).length) {
      message.info(t('device.settings.unchanged'));
      return;
    }
    try {
      const r = await save.mutateAsync({
        id: device.id,
        ...(Object.keys(changedOptions).length ? { options: changedOptions } : {}),
        ...(Object.keys(changedSpecial).length ? { special: changedSpecial } : {}),
      });
      message.success(t('device.settings.queued', { count: r.queued }));
      onClose();
    } catch {
      // the API client showed the server's message
    }
  };

  const num = (group: 'options' | 'special', key: string, range: readonly [number, number], extra?: ReactNode, step?: number) => (
    <Col xs={24} md={12} key={key}>
      <Form.Item
        name={[group, key]}
        label={t(`device.${group}.${key}`)}
        extra={extra ?? t('device.settings.range', { min: range[0], max: range[1] })}
        rules={[{ type: 'number', min: range[0], max: range[1], message: t('device.settings.range', { min: range[0], max: range[1] }) }]}
      >
        <InputNumber min={range[0]} max={range[1]} step={step ?? 1} precision={step ? 1 : 0} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  const flag = (key: FlagKey) => (
    <Col xs={12} md={8} key={key}>
      <Form.Item name={['flags', key]} label={t(`device.options.${key}`)} valuePropName="checked">
        <Switch />
      </Form.Item>
    </Col>
  );
  const choice = (group: 'options' | 'special', key: string, values: readonly (string | number)[], label?: (v: string | number) => string) => (
    <Col xs={24} md={12} key={key}>
      <Form.Item name={[group, key]} label={t(`device.${group}.${key}`)}>
        <Select allowClear={group === 'special'} options={values.map((v) => ({ value: v, label: label ? label(v) : String(v) }))} />
      </Form.Item>
    </Col>
  );
  const tz = (group: 'options' | 'special', key: string) => choice(group, key, TZ_OFFSETS, (m) => formatTzOffset(Number(m)));
  const ipField = (key: string) => (
    <Col xs={24} md={8} key={key}>
      <Form.Item name={['special', key]} label={t(`device.special.${key}`)} rules={[rules.ip]}>
        <Input maxLength={45} />
      </Form.Item>
    </Col>
  );
  // spec §3 names these settings but not the meaning of each value: the device's own mode numbers are shown
  const mode = (v: string | number) => t('device.settings.mode', { n: v });

  const tabs = [
    {
      key: 'config',
      label: t('device.settings.tabs.config'),
      forceRender: true,
      children: (
        <Row gutter={16}>
          {num('options', 'recognition_threshold', OPTION_RANGES.recognition_threshold, t('device.settings.defaultRange', { def: 500, min: 0, max: 1000 }))}
          {num(
            'options',
            'sfz_recognition_threshold',
            OPTION_RANGES.sfz_recognition_threshold,
            t('device.settings.defaultRange', { def: 300, min: 0, max: 1000 }),
          )}
          {num('options', 'minface', OPTION_RANGES.minface)}
          {num('options', 'screen_auto_close_time', OPTION_RANGES.screen_auto_close_time, t('device.settings.screenHint'))}
          {choice('options', 'openType', ['card', 'face', 'faceAndCard', 'faceOrCard'], (v) => t(`device.openType.${v}`))}
          {num('options', 'delay', OPTION_RANGES.delay)}
          {num('options', 'ctrl_type', OPTION_RANGES.ctrl_type)}
          {num('options', 'voice_value', OPTION_RANGES.voice_value)}
          {choice('options', 'wiegand_mode', [0, 1, 2, 3], mode)}
          {choice('options', 'wiegand_form', ['26', '34', '66'])}
          {choice('options', 'wiegand_inout', ['in', 'out'], (v) => t(`device.direction.${v}`))}
          <Col xs={24} md={12}>
            <Form.Item name={['options', 'timemode']} label={t('device.options.timemode')}>
              <Radio.Group
                options={[
                  { value: '12', label: t('device.timemode.h12') },
                  { value: '24', label: t('device.timemode.h24') },
                ]}
              />
            </Form.Item>
          </Col>
          {tz('options', 'timezone')}
          {choice('options', 'facemodel', [0, 1, 2, 3], mode)}
          {choice('options', 'autoface_type', [0, 1, 2, 3], mode)}
          {flag('voice_mute')}
          {flag('autoface')}
          {flag('allowvisit')}
          {flag('facial')}
        </Row>
      ),
    },
    {
      key: 'common',
      label: t('device.settings.tabs.common'),
      forceRender: true,
      children: (
        <Row gutter={16}>
          {flag('tempratureEnable')}
          {choice('options', 'tempratureMode', [0, 1, 2], mode)}
          {num('options', 'alarmTemp', OPTION_RANGES.alarmTemp, t('device.settings.alarmTempHint'), 0.1)}
        </Row>
      ),
    },
    {
      key: 'other',
      label: t('device.settings.tabs.other'),
      forceRender: true,
      children: (
        <>
          <Space style={{ marginBottom: 12 }} wrap>
            <Typography.Text type="secondary" data-testid="device-reported">
              {device?.reported_at ? t('device.settings.readAt', { time: formatDateTime(device.reported_at) }) : t('device.settings.notRead')}
            </Typography.Text>
            {canEdit && device && (
              <Button size="small" loading={read.isPending} onClick={() => void readFromDevice(device)} data-testid="device-read">
                {t('device.settings.read')}
              </Button>
            )}
          </Space>
          <Typography.Title level={5}>{t('device.settings.groups.card')}</Typography.Title>
          <Row gutter={16}>
            {choice('special', 'wiegand_type', ['26', '34', '66'])}
            {choice('special', 'card_mode', [0, 1, 2, 3], mode)}
            {choice('special', 'open_action', [0, 1, 2, 3], mode)}
            {num('special', 'IOStayTime', SPECIAL_RANGES.IOStayTime)}
          </Row>
          <Typography.Title level={5}>{t('device.settings.groups.network')}</Typography.Title>
          <Row gutter={16}>
            {ipField('net_ip')}
            {ipField('net_mask')}
            {ipField('net_gateway')}
          </Row>
          <Typography.Title level={5}>{t('device.settings.groups.system')}</Typography.Title>
          <Row gutter={16}>
            {num('special', 'LiveThreshold', SPECIAL_RANGES.LiveThreshold)}
            {num('special', 'LiveFrameNum', SPECIAL_RANGES.LiveFrameNum)}
            {choice('special', 'LedLightType', [0, 1, 2], mode)}
            {num('special', 'LedTime', SPECIAL_RANGES.LedTime)}
            {num('special', 'LedBrightness', SPECIAL_RANGES.LedBrightness)}
            {tz('special', 'TimeZone')}
            {choice('special', 'display_mode', [0, 1, 2, 3], mode)}
          </Row>
          <Typography.Title level={5}>{t('device.settings.groups.maintenance')}</Typography.Title>
          <Row gutter={16}>{num('special', 'AutoRebootDay', SPECIAL_RANGES.AutoRebootDay, t('device.settings.rebootHint'))}</Row>
        </>
      ),
    },
    {
      key: 'alcohol',
      label: t('device.settings.tabs.alcohol'),
      forceRender: true,
      children: (
        <>
          <Typography.Paragraph type="secondary">{t('device.settings.alcoholIntro')}</Typography.Paragraph>
          <Row gutter={16}>
            {flag('alcohol_enable')}
            {num('options', 'alcohol_threshold', OPTION_RANGES.alcohol_threshold, t('device.settings.alcoholThresholdHint'))}
            {num('options', 'alcohol_timeout', OPTION_RANGES.alcohol_timeout, t('device.settings.alcoholTimeoutHint'))}
            {choice('options', 'alcohol_over_action', ALCOHOL_ACTIONS, (v) => t(`device.alcoholAction.${v}`))}
            {choice('options', 'alcohol_unit', ALCOHOL_UNITS, (v) => t(`device.alcoholUnit.${v}`))}
          </Row>
        </>
      ),
    },
    {
      key: 'people',
      label: t('device.settings.tabs.people'),
      children: device ? (
        <Space orientation="vertical">
          <Typography.Text>
            {t('device.syncSummary', {
              synced: device.sync.synced,
              people: t('common.count.people', { count: device.sync.total }),
              failed: device.sync.failed,
              pending: device.sync.pending,
            })}
          </Typography.Text>
          <Button
            type="primary"
            data-testid="settings-people"
            onClick={() => {
              onClose();
              void navigate(`/device/personManage/${device.id}`);
            }}
          >
            {t('device.actions.people')}
          </Button>
        </Space>
      ) : null,
    },
  ];

  return (
    <Drawer
      title={device ? t('device.settings.title', { name: device.name }) : ''}
      open={open}
      onClose={onClose}
      size={760}
      forceRender
      extra={
        canEdit && (
          <Space>
            <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="settings-save">
              {t('common.actions.save')}
            </Button>
          </Space>
        )
      }
    >
      <Form form={form} layout="vertical" disabled={!canEdit} data-testid="settings-form">
        <Tabs items={tabs} />
      </Form>
    </Drawer>
  );
}
