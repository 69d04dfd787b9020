import { useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, Empty, Form, Input, Modal, Radio, Row, Segmented, Select, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, EyeOutlined, HolderOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { FIELD_TYPES, type FieldType, type FormField, type FormSchema, type Language } from '@faceadmin/shared';
import { LANGUAGE_LABEL, LANGUAGES } from '../../../lib/languages.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { ApiError } from '../../../lib/request.ts';
import { ErrorState } from '../../../ui/ErrorState.tsx';
import { PageLoading } from '../../../ui/PageLoading.tsx';
import { DepartmentPick, PersonPick } from '../components/Pickers.tsx';
import { consoleSource, fetchDuration, useApp, useForm as useAppForm, useSaveForm } from '../api.ts';
import { FormRenderer } from '../components/FormRenderer.tsx';
import { CHOICE_TYPES, canRemove, freshOption, newField, retype, schemaProblems, textOf, withText } from '../schema.ts';

/**
 * Reordering: the field nearest the dragged one. A new field from the palette: the field under the pointer (not the
 * canvas around it), else the canvas, else the nearest field.
 */
const collisions: CollisionDetection = (args) => {
  if (!String(args.active.id).startsWith('palette:'))
    return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => c.id !== 'canvas') });
  const hits = pointerWithin(args);
  const fields = hits.filter((h) => h.id !== 'canvas');
  if (fields.length) return fields;
  return hits.length ? hits : closestCenter(args);
};

/** /workflow/form/{id}: the form designer — fields dragged from a palette, reordered, edited, previewed, saved as a new version. */
export default function FormDesignPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const id = Number(useParams().id);
  const app = useApp(id);
  const saved = useAppForm(id);
  const save = useSaveForm();
  const uiLang = useLanguage();
  const [editLang, setEditLang] = useState<Language>(uiLang);
  // the designer's draft; until the first edit, the saved form
  const [draft, setFields] = useState<FormField[]>();
  const fields = draft ?? saved.data?.schema.fields;
  const [selected, setSelected] = useState<string>();
  const [dragging, setDragging] = useState<string>();
  const [error, setError] = useState<{ message: string; key?: string | undefined }>();
  const [preview, setPreview] = useState(false);
  const [previewForm] = Form.useForm();

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const schema: FormSchema = useMemo(() => ({ fields: fields ?? [] }), [fields]);
  const problems = useMemo(() => schemaProblems(schema), [schema]);

  if (app.isLoading || saved.isLoading) return <PageLoading />;
  if (app.error || saved.error) return <ErrorState error={(app.error ?? saved.error)!} onRetry={() => void (app.refetch(), saved.refetch())} />;
  if (!fields) return <PageLoading />;

  const typeLabel = (type: FieldType) => t(`workflow.fieldTypes.${type}`);
  const add = (type: FieldType, index = fields.length) => {
    const f = newField(
      type,
      fields.map((x) => x.key),
      editLang,
      typeLabel(type),
    );
    setFields([...fields.slice(0, index), f, ...fields.slice(index)]);
    setSelected(f.key);
  };
  const change = (key: string, next: FormField) => setFields(fields.map((f) => (f.key === key ? next : f)));
  const current = fields.find((f) => f.key === selected);

  const onDragStart = (e: DragStartEvent) => setDragging(String(e.active.id));
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(undefined);
    const from = String(e.active.id);
    const over = e.over ? String(e.over.id) : undefined;
    if (!over) return;
    if (from.startsWith('palette:')) {
      const at = over === 'canvas' ? fields.length : fields.findIndex((f) => f.key === over);
      add(from.slice('palette:'.length) as FieldType, at < 0 ? fields.length : at);
      return;
    }
    if (from === over || over === 'canvas') return;
    const a = fields.findIndex((f) => f.key === from);
    const b = fields.findIndex((f) => f.key === over);
    if (a >= 0 && b >= 0) setFields(arrayMove(fields, a, b));
  };

  const submit = async () => {
    setError(undefined);
    if (problems.length) return;
    try {
      const v = await save.mutateAsync({ app_id: id, schema });
      setFields(v.schema.fields);
      message.success(t('workflow.designer.savedVersion', { version: v.version }));
    } catch (e) {
      // The server names the field it refuses (data.key): selected and marked on the canvas.
      const key = e instanceof ApiError ? (e.data as { key?: unknown } | null)?.key : undefined;
      setError({ message: e instanceof Error ? e.message : String(e), key: typeof key === 'string' ? key : undefined });
      if (typeof key === 'string' && fields.some((f) => f.key === key)) setSelected(key);
    }
  };

  return (
    <Card
      data-testid="form-design-page"
      title={
        <Space>
          {t('route.workflowForm')}
          <Typography.Text type="secondary">{app.data?.name}</Typography.Text>
          <Tag color="geekblue" data-testid="form-version">
            {t('workflow.designer.version', { version: saved.data?.version ?? 0 })}
          </Tag>
        </Space>
      }
      extra={
        <Space>
          <Button icon={<EyeOutlined />} onClick={() => setPreview(true)} data-testid="form-preview">
            {t('workflow.designer.preview')}
          </Button>
          <Button type="primary" loading={save.isPending} disabled={problems.length > 0} onClick={() => void submit()} data-testid="form-save">
            {t('workflow.designer.saveVersion')}
          </Button>
        </Space>
      }
    >
      {error && (
        <Alert type="error" showIcon title={error.message} style={{ marginBottom: 12 }} closable onClose={() => setError(undefined)} data-testid="form-error" />
      )}
      {problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('workflow.designer.problems')}
          description={problems.map((p, i) => (
            <div key={i}>{t(`workflow.schemaProblems.${p.reason}`, { key: p.key })}</div>
          ))}
          data-testid="form-problems"
        />
      )}
      <DndContext sensors={sensors} collisionDetection={collisions} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(undefined)}>
        <Row gutter={16}>
          <Col xs={24} md={6} lg={5}>
            <Typography.Title level={5}>{t('workflow.designer.palette')}</Typography.Title>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('workflow.designer.paletteHint')}
            </Typography.Paragraph>
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))', gap: 6 }} data-testid="field-palette">
              {FIELD_TYPES.map((type) => (
                <PaletteItem key={type} type={type} label={typeLabel(type)} onAdd={() => add(type)} />
              ))}
            </div>
          </Col>
          <Col xs={24} md={10} lg={11}>
            <Typography.Title level={5}>{t('workflow.designer.canvas')}</Typography.Title>
            <Canvas empty={fields.length === 0}>
              <SortableContext items={fields.map((f) => f.key)} strategy={verticalListSortingStrategy}>
                {fields.map((f) => (
                  <SortableField
                    key={f.key}
                    field={f}
                    lang={editLang}
                    typeLabel={typeLabel(f.type)}
                    active={f.key === selected}
                    problem={problems.some((p) => p.key === f.key) || error?.key === f.key}
                    onSelect={() => setSelected(f.key)}
                  />
                ))}
              </SortableContext>
            </Canvas>
          </Col>
          <Col xs={24} md={8} lg={8}>
            <Typography.Title level={5}>{t('workflow.designer.properties')}</Typography.Title>
            <Segmented
              size="small"
              value={editLang}
              onChange={setEditLang}
              options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABEL[l] }))}
              style={{ marginBottom: 12 }}
              data-testid="edit-language"
            />
            {current ? (
              <FieldProperties
                key={current.key}
                field={current}
                lang={editLang}
                taken={fields.filter((f) => f !== current).map((f) => f.key)}
                onChange={(next) => {
                  change(current.key, next);
                  if (next.key !== current.key) setSelected(next.key);
                }}
                onRemove={() => {
                  setFields(fields.filter((f) => f.key !== current.key));
                  setSelected(undefined);
                }}
              />
            ) : (
              <Empty description={t('workflow.designer.pickField')} />
            )}
          </Col>
        </Row>
        <DragOverlay>
          {dragging ? (
            <div style={{ padding: '6px 12px', background: '#fff', border: '1px solid #1677ff', borderRadius: 6, boxShadow: '0 4px 12px rgba(0,0,0,.15)' }}>
              {dragging.startsWith('palette:')
                ? typeLabel(dragging.slice(8) as FieldType)
                : textOf(fields.find((f) => f.key === dragging)?.label, editLang, dragging)}
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
      <Modal
        open={preview}
        title={t('workflow.designer.previewTitle', { name: app.data?.name ?? '' })}
        onCancel={() => setPreview(false)}
        footer={
          <Space>
            <Button onClick={() => setPreview(false)}>{t('common.actions.cancel')}</Button>
            <Button type="primary" onClick={() => void previewForm.validateFields().catch(() => undefined)} data-testid="preview-check">
              {t('workflow.designer.previewCheck')}
            </Button>
          </Space>
        }
        destroyOnHidden
        width={480}
      >
        <div style={{ maxWidth: 390, margin: '0 auto' }} data-testid="form-preview-body">
          <FormRenderer
            schema={schema}
            lang={editLang}
            form={previewForm}
            durationOf={fetchDuration}
            personInput={() => <PersonPick source={consoleSource} initial={[]} />}
            departmentInput={() => <DepartmentPick source={consoleSource} multiple />}
          />
        </div>
      </Modal>
    </Card>
  );
}

function PaletteItem({ type, label, onAdd }: { type: FieldType; label: string; onAdd: () => void }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `palette:${type}` });
  return (
    <Button
      ref={setNodeRef}
      size="small"
      icon={<PlusOutlined />}
      block
      style={{ justifyContent: 'flex-start', overflow: 'hidden', opacity: isDragging ? 0.5 : 1, touchAction: 'none' }}
      onClick={onAdd}
      data-testid={`palette-${type}`}
      {...attributes}
      {...listeners}
    >
      {label}
    </Button>
  );
}

function Canvas({ children, empty }: { children: React.ReactNode; empty: boolean }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: 'canvas' });
  return (
    <div
      ref={setNodeRef}
      data-testid="form-canvas"
      style={{
        minHeight: 360,
        padding: 8,
        borderRadius: 8,
        border: `1px dashed ${isOver ? '#1677ff' : '#d9d9d9'}`,
        background: isOver ? '#f0f7ff' : '#fafafa',
        display: 'flex',
        flexDirection: 'column',
        gap: 6,
      }}
    >
      {children}
      {empty && <Empty description={t('workflow.designer.dropHere')} />}
    </div>
  );
}

function SortableField(props: { field: FormField; lang: Language; typeLabel: string; active: boolean; problem: boolean; onSelect: () => void }) {
  const { t } = useTranslation();
  const { field: f } = props;
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: f.key });
  return (
    <div
      ref={setNodeRef}
      onClick={props.onSelect}
      data-testid={`canvas-field-${f.key}`}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.4 : 1,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '8px 10px',
        background: '#fff',
        borderRadius: 6,
        cursor: 'pointer',
        border: `1px solid ${props.problem ? '#ff4d4f' : props.active ? '#1677ff' : '#f0f0f0'}`,
        boxShadow: props.active ? '0 0 0 2px rgba(22,119,255,.15)' : undefined,
      }}
    >
      <span
        style={{ cursor: 'grab', color: '#999', touchAction: 'none', padding: '6px 4px', display: 'inline-flex' }}
        {...attributes}
        {...listeners}
        data-testid={`drag-${f.key}`}
      >
        <HolderOutlined />
      </span>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div>
          {f.required && <span style={{ color: '#cf1322' }}>* </span>}
          <span data-testid="canvas-field-label">{textOf(f.label, props.lang, f.key)}</span>
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {props.typeLabel} · {f.key}
        </Typography.Text>
      </div>
      {f.locked && (
        <Tag icon={<LockOutlined />} color="gold">
          {t('workflow.designer.locked')}
        </Tag>
      )}
    </div>
  );
}

function FieldProperties(props: { field: FormField; lang: Language; taken: string[]; onChange: (f: FormField) => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const { field: f, lang, onChange } = props;
  const [key, setKey] = useState(f.key);
  const keyOk = /^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(key) && !props.taken.includes(key);
  return (
    <Form layout="vertical" size="small" data-testid="field-properties">
      {f.locked && <Alert type="info" showIcon title={t('workflow.designer.lockedHint')} style={{ marginBottom: 12 }} />}
      <Form.Item label={t('workflow.designer.key')} validateStatus={keyOk ? undefined : 'error'} help={keyOk ? undefined : t('workflow.designer.keyHelp')}>
        <Input
          value={key}
          disabled={f.locked}
          onChange={(e) => setKey(e.target.value)}
          onBlur={() => keyOk && key !== f.key && onChange({ ...f, key })}
          data-testid="prop-key"
        />
      </Form.Item>
      <Form.Item label={t('workflow.designer.type')}>
        <Select
          value={f.type}
          disabled={f.locked}
          onChange={(type: FieldType) => onChange(retype(f, type, lang))}
          options={FIELD_TYPES.map((type) => ({ value: type, label: t(`workflow.fieldTypes.${type}`) }))}
          aria-label={t('workflow.designer.type')}
          data-testid="prop-type"
        />
      </Form.Item>
      <Form.Item label={`${t('workflow.designer.label')} (${LANGUAGE_LABEL[lang]})`}>
        <Input
          value={f.label[lang] ?? ''}
          placeholder={textOf(f.label, lang)}
          onChange={(e) => onChange({ ...f, label: withText(f.label, lang, e.target.value) })}
          maxLength={100}
          data-testid="prop-label"
        />
      </Form.Item>
      {f.type === 'description' ? (
        <Form.Item label={`${t('workflow.designer.text')} (${LANGUAGE_LABEL[lang]})`}>
          <Input.TextArea value={f.text?.[lang] ?? ''} rows={4} onChange={(e) => onChange({ ...f, text: withText(f.text, lang, e.target.value) })} />
        </Form.Item>
      ) : (
        <>
          <Form.Item label={`${t('workflow.designer.placeholder')} (${LANGUAGE_LABEL[lang]})`}>
            <Input
              value={f.placeholder?.[lang] ?? ''}
              onChange={(e) => onChange({ ...f, placeholder: withText(f.placeholder, lang, e.target.value) })}
              maxLength={100}
              data-testid="prop-placeholder"
            />
          </Form.Item>
          <Form.Item label={t('workflow.designer.required')}>
            <Switch checked={f.required} disabled={f.locked} onChange={(required) => onChange({ ...f, required })} data-testid="prop-required" />
          </Form.Item>
        </>
      )}
      {f.type === 'daterange' && (
        <Form.Item label={t('workflow.designer.unit')}>
          <Radio.Group
            value={f.unit ?? 'day'}
            onChange={(e) => onChange({ ...f, unit: e.target.value as 'day' | 'hour' })}
            options={[
              { value: 'day', label: t('workflow.designer.unitDay') },
              { value: 'hour', label: t('workflow.designer.unitHour') },
            ]}
          />
        </Form.Item>
      )}
      {CHOICE_TYPES.includes(f.type) && (
        <Form.Item label={t('workflow.designer.options')}>
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="prop-options">
            {(f.options ?? []).map((o, i) => (
              <Space.Compact key={o.value} style={{ width: '100%' }}>
                <Input style={{ width: '38%' }} value={o.value} disabled title={t('workflow.designer.optionValue')} />
                <Input
                  value={o.label[lang] ?? ''}
                  placeholder={textOf(o.label, lang)}
                  onChange={(e) => {
                    const options = [...(f.options ?? [])];
                    options[i] = { ...o, label: withText(o.label, lang, e.target.value) };
                    onChange({ ...f, options });
                  }}
                  data-testid={`prop-option-${i}`}
                />
                <Button
                  icon={<DeleteOutlined />}
                  disabled={(f.options?.length ?? 0) <= 1}
                  onClick={() => onChange({ ...f, options: (f.options ?? []).filter((x) => x.value !== o.value) })}
                />
              </Space.Compact>
            ))}
            <Button
              size="small"
              icon={<PlusOutlined />}
              onClick={() => {
                const value = freshOption(f);
                onChange({
                  ...f,
                  options: [...(f.options ?? []), { value, label: { [lang]: value.replace('option_', `${t('workflow.designer.option')} `) } }],
                });
              }}
              data-testid="prop-option-add"
            >
              {t('workflow.designer.addOption')}
            </Button>
          </Space>
        </Form.Item>
      )}
      <Button danger icon={<DeleteOutlined />} disabled={!canRemove(f)} onClick={props.onRemove} data-testid="prop-remove">
        {t('workflow.designer.removeField')}
      </Button>
    </Form>
  );
}
