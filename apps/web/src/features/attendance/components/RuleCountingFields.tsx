import { Col, Form, Radio, Row, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORKED_BY } from '@faceadmin/shared';

/**
 * How a rule counts (#17): worked time from first to last punch or as the sum of in/out pairs, whether punches on
 * holidays and rest days count (as overtime), and whether overtime needs an approved application. Fields of the
 * rule form (`RuleDrawer`), in its thresholds section.
 */
export function RuleCountingFields() {
  const { t } = useTranslation();
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item name="worked_by" label={t('att.rule.counting.workedBy')} extra={t('att.rule.counting.workedByHelp')}>
          <Radio.Group optionType="button" options={WORKED_BY.map((w) => ({ value: w, label: t(`att.rule.counting.${w}`) }))} data-testid="rule-worked-by" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="count_off_day_punches"
          label={t('att.rule.counting.countOffDay')}
          valuePropName="checked"
          extra={t('att.rule.counting.countOffDayHelp')}
        >
          <Switch data-testid="rule-count-off-day" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="overtime_needs_approval"
          label={t('att.rule.counting.overtimeApproval')}
          valuePropName="checked"
          extra={t('att.rule.counting.overtimeApprovalHelp')}
        >
          <Switch data-testid="rule-overtime-approval" />
        </Form.Item>
      </Col>
    </Row>
  );
}
