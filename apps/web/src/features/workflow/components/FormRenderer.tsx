import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, InputNumber, Select, Space, Tag, Typography, type FormInstance } from 'antd';
import { PaperClipOutlined, PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { WORKFLOW_LIMITS, type Duration, type FormField, type FormSchema, type Language, type WorkflowFile } from '@faceadmin/shared';
import { textOf } from '../schema.ts';
import { pickerToIso } from '../../../ui/format.ts';

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
  /** uploads a picture or attachment (console or self-service); none in the designer's preview */
  uploadFile?: ((kind: 'picture' | 'attachment', file: File) => Promise<WorkflowFile>) | undefined;
  /** the zone the pickers' times are read in (the self-service page: the company's); the browser's when omitted */
  zone?: string | undefined;
}

/** An application form as the applicant sees it: the app's schema rendered with antd Form, one item per field. */
export function FormRenderer({ schema, lang, form, durationOf, personInput, departmentInput, initialValues, disabled, uploadFile, zone }: RendererProps) {
  return (
    <Form form={form} layout="vertical" initialValues={initialValues} disabled={disabled} data-testid="apply-form">
      {schema.fields.map((f) => (
        <FieldItem
          key={f.key}
          field={f}
          lang={lang}
          durationOf={durationOf}
          personInput={personInput}
          departmentInput={departmentInput}
          uploadFile={uploadFile}
          zone={zone}
        />
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
  uploadFile,
  zone,
}: { field: FormField; lang: Language } & Pick<RendererProps, 'durationOf' | 'personInput' | 'departmentInput' | 'uploadFile' | 'zone'>) {
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
          <RangeDuration name={f.key} unit={f.unit ?? 'day'} durationOf={durationOf} zone={zone} />
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
      input = uploadFile ? (
        <FilesInput kind={f.type} upload={uploadFile} />
      ) : (
        <Typography.Text type="secondary">{t('workflow.form.uploadUnavailable')}</Typography.Text>
      );
      break;
  }
  return (
    <Form.Item name={f.key} label={label} rules={rules} data-testid={`field-${f.key}`}>
      {input}
    </Form.Item>
  );
}

/** The picked period's duration in the applicant's working time, asked of the server as the range changes. */
function RangeDuration({
  name,
  unit,
  durationOf,
  zone,
}: {
  name: string;
  unit: 'day' | 'hour';
  durationOf: RendererProps['durationOf'];
  zone?: string | undefined;
}) {
  const { t } = useTranslation();
  const value = Form.useWatch(name) as [Dayjs | null, Dayjs | null] | undefined;
  const iso = (d: Dayjs | null | undefined) => (d ? (zone ? pickerToIso(d, zone) : d.toISOString()) : undefined);
  const from = iso(value?.[0]);
  const to = iso(value?.[1]);
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
            : t('workflow.form.durationDays', { count: shown.days, hours: shown.hours })}
    </Typography.Paragraph>
  );
}

/** A picture or attachment field: files uploaded as they are picked, the field's value their stored names. */
function FilesInput({
  kind,
  upload,
  value,
  onChange,
}: {
  kind: 'picture' | 'attachment';
  upload: NonNullable<RendererProps['uploadFile']>;
  value?: string[];
  onChange?: (names: string[]) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  // what each uploaded name was called on the device it came from
  const [known, setKnown] = useState<Record<string, string>>({});
  const names = value ?? [];
  const pick = async (file: File) => {
    if (file.size > WORKFLOW_LIMITS.fileMaxBytes) {
      void message.error(t('workflow.form.fileTooLarge', { mb: WORKFLOW_LIMITS.fileMaxBytes / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      const r = await upload(kind, file);
      setKnown((k) => ({ ...k, [r.name]: file.name }));
      onChange?.([...names, r.name]);
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        {names.map((n) => (
          <Tag key={n} closable onClose={() => onChange?.(names.filter((x) => x !== n))} data-testid="uploaded-file">
            {known[n] ?? n}
          </Tag>
        ))}
      </Space>
      <Button icon={kind === 'picture' ? <PictureOutlined /> : <PaperClipOutlined />} loading={busy} onClick={() => picker.current?.click()}>
        {t(kind === 'picture' ? 'workflow.form.addPicture' : 'workflow.form.addAttachment')}
      </Button>
      <input
        ref={picker}
        type="file"
        style={{ display: 'none' }}
        accept={kind === 'picture' ? 'image/jpeg,image/png' : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void pick(file);
        }}
        data-testid={`file-input-${kind}`}
      />
    </Space>
  );
}
