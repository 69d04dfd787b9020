import { useEffect } from 'react';
import { Button, Card, Col, Divider, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { browserTimeZone, timeZoneOptions } from '../../../ui/format.ts';
import { useTranslation } from 'react-i18next';
import { LIMITS, type Company, type CompanyInput, type CompanyOptions } from '@faceadmin/shared';

type FlagKey = Exclude<keyof CompanyOptions, 'parking'>;
const FLAGS: FlagKey[] = ['iocount', 'rfid', 'idcard', 'number', 'alarmRing', 'thirdParty', 'dualAuth', 'internalTesting'];

/** The form works with booleans; the API stores the switches as 0/1. */
interface Values {
  name: string;
  phone: string;
  address: string;
  location: string;
  filter_seconds: number | null;
  time_zone: string;
  options: Record<FlagKey, boolean> & { parking: { enabled: boolean; url: string; key: string } };
}

const LOCATION_PATTERN = /^-?\d{1,3}(\.\d+)?,\s*-?\d{1,2}(\.\d+)?$/;

function toValues(c: Company | undefined): Partial<Values> {
  if (!c)
    return {
      filter_seconds: null,
      // A new company starts in the zone of the browser that creates it (issue #9 item 7); editable.
      time_zone: browserTimeZone(),
      // the server's defaults: only the person number is on (its field shows on the person form)
      options: { ...Object.fromEntries(FLAGS.map((f) => [f, f === 'number'])), parking: { enabled: false, url: '', key: '' } } as Values['options'],
    };
  return {
    name: c.name,
    phone: c.phone,
    address: c.address,
    location: c.location,
    filter_seconds: c.filter_seconds,
    time_zone: c.time_zone,
    options: {
      ...(Object.fromEntries(FLAGS.map((f) => [f, Boolean(c.options?.[f])])) as Record<FlagKey, boolean>),
      parking: {
        enabled: Boolean(c.options?.parking?.enabled),
        url: c.options?.parking?.url ?? '',
        // the secret never comes back from the server: blank keeps the stored one
        key: '',
      },
    },
  };
}

function toInput(v: Values): CompanyInput {
  const flags = Object.fromEntries(FLAGS.map((f) => [f, v.options?.[f] ? 1 : 0])) as Record<FlagKey, number>;
  const parking = v.options?.parking;
  return {
    name: v.name.trim(),
    phone: v.phone.trim(),
    address: v.address?.trim() ?? '',
    location: v.location?.replace(/\s+/g, '') ?? '',
    filter_seconds: v.filter_seconds ?? 0,
    time_zone: v.time_zone,
    options: { ...flags, parking: { enabled: parking?.enabled ? 1 : 0, url: parking?.url ?? '', key: parking?.key ?? '' } },
  };
}

interface Props {
  company?: Company | undefined;
  submitting: boolean;
  readOnly?: boolean;
  onSubmit: (input: CompanyInput) => void;
}

/** One company form for create and update (spec §2: both share one company info form). */
export function CompanyForm({ company, submitting, readOnly, onSubmit }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  useEffect(() => form.setFieldsValue(toValues(company)), [company, form]);
  const parkingOn = Form.useWatch(['options', 'parking', 'enabled'], form);

  return (
    <Form
      form={form}
      layout="vertical"
      disabled={readOnly}
      initialValues={toValues(company)}
      onFinish={(v) => onSubmit(toInput(v))}
      data-testid="company-form"
      style={{ maxWidth: 880 }}
    >
      <Card title={t('company.sections.basic')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('company.fields.name')}
              rules={[{ required: true, whitespace: true, message: t('common.validation.required') }, { max: LIMITS.textMax }]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="phone"
              label={t('company.fields.phone')}
              rules={[{ required: true, whitespace: true, message: t('common.validation.required') }, { max: LIMITS.textMax }]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="address" label={t('company.fields.address')} rules={[{ max: LIMITS.longTextMax }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="location"
              label={t('company.fields.location')}
              tooltip={t('company.hints.location')}
              rules={[{ pattern: LOCATION_PATTERN, message: t('company.validation.location') }]}
            >
              <Input placeholder="116.397,39.909" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="filter_seconds" label={t('company.fields.filterSeconds')} tooltip={t('company.hints.filterSeconds')}>
              <InputNumber min={0} max={86400} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="time_zone"
              label={t('company.fields.timeZone')}
              tooltip={t('company.hints.timeZone')}
              rules={[{ required: true, message: t('common.validation.required') }]}
            >
              <Select showSearch options={timeZoneOptions()} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('company.sections.options')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          {FLAGS.map((f) => (
            <Col xs={12} md={6} key={f}>
              <Form.Item name={['options', f]} label={t(`company.options.${f}`)} valuePropName="checked" extra={t(`company.optionHints.${f}`)}>
                <Switch data-testid={`company-option-${f}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Divider titlePlacement="start">{t('company.options.parking')}</Divider>
        <Typography.Paragraph type="secondary">{t('company.optionHints.parking')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item name={['options', 'parking', 'enabled']} label={t('company.fields.parkingEnabled')} valuePropName="checked">
              <Switch data-testid="parking-enabled" />
            </Form.Item>
          </Col>
          <Col xs={24} md={9}>
            <Form.Item
              name={['options', 'parking', 'url']}
              label={t('company.fields.parkingUrl')}
              rules={[{ type: 'url', message: t('common.validation.url') }]}
            >
              <Input disabled={!parkingOn} data-testid="parking-url" />
            </Form.Item>
          </Col>
          <Col xs={24} md={9}>
            <Form.Item
              name={['options', 'parking', 'key']}
              label={t('company.fields.parkingKey')}
              extra={company?.options?.parking?.key_set ? t('company.hints.parkingKeySet') : undefined}
            >
              <Input.Password disabled={!parkingOn} autoComplete="new-password" data-testid="parking-key" />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      {!readOnly && (
        <Button type="primary" htmlType="submit" loading={submitting} data-testid="company-submit">
          {company ? t('common.actions.save') : t('company.create')}
        </Button>
      )}
    </Form>
  );
}
