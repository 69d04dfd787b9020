import { Button, Form, Space, TimePicker } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AccessPeriod } from '@faceadmin/shared';
import { ruleSet } from '../../../ui/rules.ts';
import { canAddPeriod, periodProblems } from '../logic.ts';

// The form keeps "HH:mm" strings; the pickers work with dayjs.
const toPicker = (v: string | undefined) => ({ value: v ? dayjs(`2000-01-01T${v}`) : null });
const fromPicker = (d: Dayjs | null) => (d ? d.format('HH:mm') : undefined);

/** Up to three daily access periods (spec §3), each start < end, not overlapping. */
export function PeriodsEditor() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const { required } = ruleSet(t);

  return (
    <Form.List name="periods">
      {(fields, { add, remove }) => (
        <div data-testid="periods-editor">
          {fields.map((field, index) => (
            <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
              <Form.Item name={[field.name, 'start']} getValueProps={toPicker} normalize={fromPicker} rules={[required]}>
                <TimePicker format="HH:mm" placeholder={t('person.access.start')} needConfirm={false} data-testid={`period-${index}-start`} />
              </Form.Item>
              <span>–</span>
              <Form.Item
                name={[field.name, 'end']}
                getValueProps={toPicker}
                normalize={fromPicker}
                dependencies={[['periods', field.name, 'start']]}
                rules={[
                  {
                    validator: () => {
                      const list = (form.getFieldValue('periods') ?? []) as Partial<AccessPeriod>[];
                      const problem = periodProblems(list)[index];
                      if (!problem) return Promise.resolve();
                      return Promise.reject(new Error(t(`person.access.problems.${problem}`)));
                    },
                  },
                ]}
              >
                <TimePicker format="HH:mm" placeholder={t('person.access.end')} needConfirm={false} data-testid={`period-${index}-end`} />
              </Form.Item>
              <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label={t('person.access.removePeriod')} />
            </Space>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} disabled={!canAddPeriod(fields.length)} onClick={() => add({})} data-testid="period-add">
            {t('person.access.addPeriod')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
