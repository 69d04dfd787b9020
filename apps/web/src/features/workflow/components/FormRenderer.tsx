import { useEffect, useState } from 'react';
import { Alert, DatePicker, Form, Input, InputNumber, Select, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { Duration, FormField, FormSchema, Language } from '@faceadmin/shared';
import { textOf } from '../schema.ts';

export interface RendererProps {
  schema: FormSchema;
  lang: Language;
  form: FormInstance;
  /** the duration endpoint (console or self-service); none in the designer's preview */
  durationOf?: ((from: string, to: string) => Promise<Duration>) | undefined;
  /** the person field's picker (the console has the people search; the self-service page does not) */
  personInput?: (() => React.ReactNode) | undefined;
  /** department field: a picker (console) or the applicant's own departments (self-service) */
  departmentInput?: (() => React.ReactNode) | undefined;
  initialValues?: Record<string, unknown> | undefined;
  disabled?: boolean;
}

/** An application form as the applicant sees it: the app's schema rendered with antd Form, one item per field. */
export function FormRenderer({ schema, lang, form, durationOf, personInput, departmentInput, initialValues, disabled }: RendererProps) {
  return (
    <Form form={form} layout="vertical" initialValues={initialValues} disabled={disabled} data-testid="apply-form">
      {schema.fields.map((f) => (
        <FieldItem key={f.key} field={f} lang={lang} durationOf={durationOf} personInput={personInput} departmentInput={departmentInput} />
      ))}
    </Form>
  );
}

function FieldItem({
  field: f,
  lang,
  durationOf,
  personInput,
  departmentInput,
}: { field: FormField; lang: Language } & Pick<RendererProps, 'durationOf' | 'personInput' | 'departmentInput'>) {
  const { t } = useTranslation();
  const label = textOf(f.label, lang, f.key);
  const placeholder = textOf(f.placeholder, lang) || undefined;
  if (f.type === 'description') {
    return (
      <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap' }} data-testid={`field-${f.key}`}>
        {textOf(f.text, lang) || label}
      </Typography.Paragraph>
    );
  }
  const rules = f.required ? [{ required: true, message: t('workflow.form.required', { label }) }] : [];
  const options = (f.options ?? []).map((o) => ({ value: o.value, label: textOf(o.label, lang, o.value) }));
  let input: React.ReactNode;
  switch (f.type) {
    case 'text':
      input = <Input placeholder={placeholder} maxLength={200} />;
      break;
    case 'textarea':
      input = <Input.TextArea placeholder={placeholder} rows={3} maxLength={2000} />;
      break;
    case 'number':
      input = <InputNumber placeholder={placeholder} style={{ width: '100%' }} />;
      break;
    case 'money':
      input = <InputNumber placeholder={placeholder} precision={2} min={0} style={{ width: '100%' }} prefix="¤" />;
      break;
    case 'select':
      input = <Select placeholder={placeholder} options={options} />;
      break;
    case 'multiselect':
      input = <Select mode="multiple" placeholder={placeholder} options={options} />;
      break;
    case 'date':
      input = <DatePicker style={{ width: '100%' }} />;
      break;
    case 'datetime':
      input = <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />;
      break;
    case 'daterange':
      return (
        <>
          <Form.Item name={f.key} label={label} rules={rules} data-testid={`field-${f.key}`}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
          <RangeDuration name={f.key} unit={f.unit ?? 'day'} durationOf={durationOf} />
        </>
      );
    case 'person':
      input = personInput ? personInput() : <Alert type="info" title={t('workflow.form.personUnavailable')} />;
      break;
    case 'department':
      input = departmentInput ? departmentInput() : <Alert type="info" title={t('workflow.form.personUnavailable')} />;
      break;
    case 'picture':
    case 'attachment':
      // no upload endpoint for application files yet (see the report): the field is shown, not filled
      return (
        <Form.Item label={label} data-testid={`field-${f.key}`}>
          <Typography.Text type="secondary">{t('workflow.form.uploadUnavailable')}</Typography.Text>
        </Form.Item>
      );
  }
  return (
    <Form.Item name={f.key} label={label} rules={rules} data-testid={`field-${f.key}`}>
      {input}
    </Form.Item>
  );
}

/** The picked period's duration in the applicant's working time, asked of the server as the range changes. */
function RangeDuration({ name, unit, durationOf }: { name: string; unit: 'day' | 'hour'; durationOf: RendererProps['durationOf'] }) {
  const { t } = useTranslation();
  const value = Form.useWatch(name) as [Dayjs | null, Dayjs | null] | undefined;
  const from = value?.[0]?.toISOString();
  const to = value?.[1]?.toISOString();
  const [duration, setDuration] = useState<{ key: string; d: Duration | null }>();
  useEffect(() => {
    if (!durationOf || !from || !to) return;
    let live = true;
    durationOf(from, to).then(
      (d) => live && setDuration({ key: `${from}|${to}`, d }),
      () => live && setDuration({ key: `${from}|${to}`, d: null }),
    );
    return () => {
      live = false;
    };
  }, [durationOf, from, to]);
  if (!from || !to || !durationOf) return null;
  const shown = duration?.key === `${from}|${to}` ? duration.d : undefined;
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: -16 }} data-testid={`duration-${name}`}>
      {shown === undefined
        ? t('workflow.form.durationLoading')
        : shown === null
          ? t('workflow.form.durationFailed')
          : unit === 'hour'
            ? t('workflow.form.durationHours', { hours: shown.hours })
            : t('workflow.form.durationDays', { days: shown.days, hours: shown.hours })}
    </Typography.Paragraph>
  );
}
