import { Button, Drawer, Form, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  APPROVE_MODES,
  APPROVER_KINDS,
  EMPTY_RULES,
  WORKFLOW_LIMITS,
  type ApproverChoice,
  type Condition,
  type ConditionOp,
  type FormSchema,
  type Language,
  type ProcessBranch,
  type ProcessNode,
} from '@faceadmin/shared';
import { consoleSource } from '../api.ts';
import { DepartmentPick, PersonPick } from './Pickers.tsx';
import { CHOICE_TYPES, MEASURED_TYPES, textOf } from '../schema.ts';

const MEASURED_OPS: ConditionOp[] = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne'];
const CHOICE_OPS: ConditionOp[] = ['eq', 'ne', 'in'];

/** Who approves (or is copied): named people, the applicant's department head N levels up, or the administrators. */
function ChoiceEditor({ value, onChange, names }: { value: ApproverChoice; onChange: (c: ApproverChoice) => void; names: Map<number, string> }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('workflow.flow.approverKind')}>
        <Radio.Group
          value={value.kind}
          onChange={(e) => {
            const kind = e.target.value as ApproverChoice['kind'];
            onChange(kind === 'people' ? { kind, person_ids: [] } : kind === 'head' ? { kind, level: 1 } : { kind });
          }}
          options={APPROVER_KINDS.map((k) => ({ value: k, label: t(`workflow.flow.kinds.${k}`) }))}
          data-testid="node-approver-kind"
        />
      </Form.Item>
      {value.kind === 'people' && (
        <Form.Item label={t('workflow.flow.people')}>
          <PersonPick
            source={consoleSource}
            aria-label={t('workflow.flow.people')}
            initial={(value.person_ids ?? []).map((id) => ({ id, name: names.get(id) ?? `#${id}` }))}
            value={value.person_ids ?? []}
            onChange={(person_ids) => onChange({ ...value, person_ids })}
          />
        </Form.Item>
      )}
      {value.kind === 'head' && (
        <Form.Item label={t('workflow.flow.level')} extra={t('workflow.flow.levelHint')}>
          <InputNumber
            min={1}
            max={WORKFLOW_LIMITS.headLevelMax}
            precision={0}
            value={value.level ?? 1}
            onChange={(level) => onChange({ ...value, level: level ?? 1 })}
            data-testid="node-level"
          />
        </Form.Item>
      )}
    </>
  );
}

/** The drawer of an approver or cc node. */
export function NodeDrawer({
  node,
  names,
  onChange,
  onClose,
}: {
  node: ProcessNode | undefined;
  names: Map<number, string>;
  onChange: (n: ProcessNode) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const open = !!node && node.type !== 'condition';
  return (
    <Drawer open={open} onClose={onClose} title={node ? t(`workflow.flow.nodeTitle.${node.type}`) : ''} size={480} data-testid="node-drawer">
      {node && node.type !== 'condition' && (
        <Form layout="vertical" data-testid="node-form">
          <Form.Item label={t('workflow.flow.nodeName')}>
            <Input
              value={node.name ?? ''}
              maxLength={WORKFLOW_LIMITS.nameMax}
              placeholder={t(`workflow.flow.nodeTitle.${node.type}`)}
              onChange={(e) => onChange({ ...node, name: e.target.value || undefined })}
              data-testid="node-name"
            />
          </Form.Item>
          <ChoiceEditor value={node.approver} names={names} onChange={(approver) => onChange({ ...node, approver })} />
          {node.type === 'approver' && (
            <>
              <Form.Item label={t('workflow.flow.mode')}>
                <Radio.Group
                  value={node.mode}
                  onChange={(e) => onChange({ ...node, mode: e.target.value as typeof node.mode })}
                  options={APPROVE_MODES.map((m) => ({ value: m, label: t(`workflow.flow.modes.${m}`) }))}
                  data-testid="node-mode"
                />
              </Form.Item>
              <Form.Item label={t('workflow.flow.empty')}>
                <Radio.Group
                  value={node.empty}
                  onChange={(e) => onChange({ ...node, empty: e.target.value as typeof node.empty })}
                  options={EMPTY_RULES.map((m) => ({ value: m, label: t(`workflow.flow.emptyRules.${m}`) }))}
                  data-testid="node-empty"
                />
              </Form.Item>
            </>
          )}
        </Form>
      )}
    </Drawer>
  );
}

/** The drawer of a branch: its name and conditions (all must hold). The default branch takes what the others leave. */
export function BranchDrawer(props: {
  branch: ProcessBranch | undefined;
  form: FormSchema;
  lang: Language;
  onChange: (b: ProcessBranch) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { branch: b, form, lang, onChange } = props;
  const fields = form.fields.filter((f) => MEASURED_TYPES.includes(f.type) || CHOICE_TYPES.includes(f.type));
  const setCondition = (i: number, c: Condition) => b && onChange({ ...b, conditions: b.conditions.map((x, j) => (j === i ? c : x)) });
  return (
    <Drawer open={!!b} onClose={props.onClose} title={t('workflow.flow.branchTitle')} size={520} data-testid="branch-drawer">
      {b && (
        <Form layout="vertical" data-testid="branch-form">
          <Form.Item label={t('workflow.flow.branchName')}>
            <Input
              value={b.name ?? ''}
              maxLength={WORKFLOW_LIMITS.nameMax}
              onChange={(e) => onChange({ ...b, name: e.target.value || undefined })}
              data-testid="branch-name"
            />
          </Form.Item>
          {b.default ? (
            <Typography.Paragraph type="secondary">{t('workflow.flow.defaultHint')}</Typography.Paragraph>
          ) : (
            <>
              <Typography.Paragraph type="secondary">{t('workflow.flow.conditionsHint')}</Typography.Paragraph>
              {b.conditions.map((c, i) => {
                const field = form.fields.find((f) => f.key === c.field);
                const measured = field ? MEASURED_TYPES.includes(field.type) : false;
                const options = (field?.options ?? []).map((o) => ({ value: o.value, label: textOf(o.label, lang, o.value) }));
                return (
                  <div key={i} style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8, marginBottom: 8 }} data-testid={`condition-${i}`}>
                    <Space wrap align="start">
                      <Select
                        style={{ width: 130 }}
                        value={c.kind}
                        onChange={(kind: Condition['kind']) => setCondition(i, kind === 'department' ? { kind, department_ids: [] } : { kind })}
                        options={[
                          { value: 'field', label: t('workflow.flow.onField') },
                          { value: 'department', label: t('workflow.flow.onDepartment') },
                        ]}
                        aria-label={t('workflow.flow.conditionOn')}
                        data-testid="condition-kind"
                      />
                      {c.kind === 'field' ? (
                        <>
                          <Select
                            style={{ width: 160 }}
                            placeholder={t('workflow.flow.field')}
                            aria-label={t('workflow.flow.field')}
                            value={c.field}
                            onChange={(key: string) => setCondition(i, { kind: 'field', field: key })}
                            options={fields.map((f) => ({
                              value: f.key,
                              label:
                                f.type === 'daterange' ? t('workflow.flow.durationOf', { label: textOf(f.label, lang, f.key) }) : textOf(f.label, lang, f.key),
                            }))}
                            data-testid="condition-field"
                          />
                          {field && (
                            <Select
                              style={{ width: 110 }}
                              value={c.op}
                              onChange={(op: ConditionOp) => setCondition(i, { ...c, op, value: measured ? c.value : op === 'in' ? [] : undefined })}
                              options={(measured ? MEASURED_OPS : CHOICE_OPS).map((op) => ({ value: op, label: t(`workflow.flow.ops.${op}`) }))}
                              aria-label={t('workflow.flow.operator')}
                              data-testid="condition-op"
                            />
                          )}
                          {field && c.op && measured && (
                            <InputNumber
                              value={typeof c.value === 'number' ? c.value : null}
                              onChange={(v) => setCondition(i, { ...c, value: v ?? undefined })}
                              addonAfter={
                                field.type === 'daterange' ? t(field.unit === 'hour' ? 'workflow.designer.unitHour' : 'workflow.designer.unitDay') : undefined
                              }
                              style={{ width: 140 }}
                              aria-label={t('workflow.flow.value')}
                              data-testid="condition-value"
                            />
                          )}
                          {field && c.op && !measured && (
                            <Select
                              style={{ minWidth: 160 }}
                              mode={c.op === 'in' ? 'multiple' : undefined}
                              value={c.value as string | string[] | undefined}
                              onChange={(value: string | string[]) => setCondition(i, { ...c, value })}
                              options={options}
                              aria-label={t('workflow.flow.value')}
                              data-testid="condition-value"
                            />
                          )}
                        </>
                      ) : (
                        <DepartmentPick
                          source={consoleSource}
                          multiple
                          style={{ minWidth: 220 }}
                          value={c.department_ids ?? []}
                          onChange={(ids: number[]) => setCondition(i, { kind: 'department', department_ids: ids })}
                          data-testid="condition-departments"
                        />
                      )}
                      <Button
                        icon={<DeleteOutlined />}
                        onClick={() => onChange({ ...b, conditions: b.conditions.filter((_, j) => j !== i) })}
                        aria-label={t('common.actions.delete')}
                      />
                    </Space>
                  </div>
                );
              })}
              <Button icon={<PlusOutlined />} onClick={() => onChange({ ...b, conditions: [...b.conditions, { kind: 'field' }] })} data-testid="condition-add">
                {t('workflow.flow.addCondition')}
              </Button>
            </>
          )}
        </Form>
      )}
    </Drawer>
  );
}
