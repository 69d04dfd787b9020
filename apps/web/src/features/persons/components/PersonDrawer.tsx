import { useEffect, useState } from 'react';
import { App, Button, Checkbox, Col, DatePicker, Divider, Drawer, Form, Input, Radio, Row, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  CARD_PATTERN,
  CODES,
  DOOR_PASSWORD_PATTERN,
  GENDERS,
  LIMITS,
  PERSON_NUMBER_PATTERN,
  PLATE_PATTERN,
  USER_PRI,
  WORK_STATUS,
  type Person,
} from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { ruleSet } from '../../../ui/rules.ts';
import { fetchNextNumber, uploadFace, useSavePerson } from '../api.ts';
import { adminPasswordRequired, emptyPersonValues, formFieldOf, personToValues, valuesToBody, type PersonFormValues } from '../logic.ts';
import { useCompanyInfo } from '../../companies/api.ts';
import { DepartmentSelect } from './DepartmentSelect.tsx';
import { FaceUpload } from './FaceUpload.tsx';
import { PeriodsEditor } from './PeriodsEditor.tsx';
import { PersonDevices } from './PersonDevices.tsx';

interface Props {
  open: boolean;
  /** undefined = create */
  person: Person | undefined;
  /** preselected department for a new person (organization page) */
  departmentId?: number | undefined;
  /** a face picture for a new person (a stranger's capture): uploaded when the drawer opens, as if chosen */
  initialPhoto?: File | undefined;
  /** the number for a new person (a stranger a terminal knows by one) instead of the next free one */
  initialNumber?: string | undefined;
  onClose: () => void;
}

type Values = Omit<PersonFormValues, 'joined_on'> & { accessRange?: [Dayjs | null, Dayjs | null] | null; joined_on?: Dayjs | null };

const PHONE = /^[0-9+()\- ]{1,20}$/;
const IDCARD = /^$|^[0-9A-Za-z]{6,20}$/;
const PLATE = new RegExp(PLATE_PATTERN);
const OPTIONAL_CARD = new RegExp(`^$|${CARD_PATTERN}`);
const OPTIONAL_DOOR = new RegExp(`^$|${DOOR_PASSWORD_PATTERN}`);
const DATE = 'YYYY-MM-DD';

/** Create / edit a person: every field of the create/update body (docs/api-people.md, spec §3, §5). */
export function PersonDrawer({ open, person, departmentId, initialPhoto, initialNumber, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSavePerson();
  const [picUrl, setPicUrl] = useState<string>();
  const isAdmin = Form.useWatch('is_admin', form);
  const clearDoor = Form.useWatch('clear_door_password', form);
  const { required } = ruleSet(t);
  // spec §3 Company options number / rfid / idcard: each field is shown (and the card and ID card required)
  // only with its option on; hidden fields keep their values, so saving never clears a stored card.
  const options = useCompanyInfo(open).data?.options;
  const showNumber = options?.number !== 0;
  const needCard = options?.rfid === 1;
  const needIdcard = options?.idcard === 1;
  // plate numbers matter only to parking operators: shown while the company's parking binding is enabled
  const showPlates = options?.parking.enabled === 1;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (person) {
      const v = personToValues(person);
      form.setFieldsValue({
        ...v,
        joined_on: v.joined_on ? dayjs(v.joined_on) : null,
        accessRange: v.accessFrom || v.accessTo ? [v.accessFrom ? dayjs(v.accessFrom) : null, v.accessTo ? dayjs(v.accessTo) : null] : null,
      });
      // The drawer loads the opened person into antd's form store (outside React) and its picture with it.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setPicUrl(person.pic_url);
      return;
    }
    form.setFieldsValue({ ...emptyPersonValues(initialNumber ?? '', departmentId), joined_on: null });
    setPicUrl(undefined);
    // spec: the number is proposed by the server for a new person
    let live = true;
    if (!initialNumber)
      fetchNextNumber()
        .then((r) => {
          if (live && !form.getFieldValue('number')) form.setFieldValue('number', r.number);
        })
        .catch(() => undefined);
    // A given picture (e.g. a stranger's capture) goes through the same upload as one chosen in the field; a
    // refusal (too small, not a face picture) is shown on the field, which stays empty.
    if (initialPhoto)
      uploadFace(initialPhoto, initialPhoto.name || 'face.jpg')
        .then((r) => {
          if (!live) return;
          form.setFieldValue('pic', r.pic);
          setPicUrl(r.pic_url);
        })
        .catch((e: unknown) => {
          if (live && e instanceof ApiError) form.setFields([{ name: 'pic', errors: [e.message] }]);
        });
    return () => {
      live = false;
    };
  }, [open, person, departmentId, initialPhoto, initialNumber, form]);

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    const range = v.accessRange ?? null;
    const values: PersonFormValues = {
      ...v,
      joined_on: v.joined_on?.format(DATE) ?? null,
      accessFrom: range?.[0]?.format(DATE) ?? null,
      accessTo: range?.[1]?.format(DATE) ?? null,
    };
    try {
      await save.mutateAsync({ id: person?.id, body: valuesToBody(values, person) });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // 40001 with data.field marks that field; 40009 on a person is the number being taken.
      const field = (e.data as { field?: string } | null)?.field;
      if ((e.code === CODES.VALIDATION || e.code === CODES.RULE) && field) {
        const name = formFieldOf(field) as keyof Values;
        form.setFields([{ name, errors: [e.message] }]);
        form.scrollToField(name, { block: 'center' });
      } else if (e.code === CODES.CONFLICT) {
        form.setFields([{ name: 'number', errors: [e.message] }]);
      }
      if (e.kind === 'api') message.error(e.message);
    }
  };

  const departments = (testId: string) => <DepartmentSelect multiple placeholder={t('person.chooseDepartments')} data-testid={testId} />;

  return (
    <Drawer
      title={person ? t('person.edit') : t('person.create')}
      open={open}
      onClose={onClose}
      size={760}
      forceRender
      destroyOnHidden={false}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="person-save">
            {t('common.actions.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" autoComplete="off" data-testid="person-form" scrollToFirstError>
        <Divider titlePlacement="start" plain>
          {t('person.sections.basic')}
        </Divider>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="pic" label={t('person.fields.pic')} rules={[required]} extra={t('person.face.hint', { mb: LIMITS.photoMaxBytes / 1024 / 1024 })}>
              <FaceUpload url={picUrl} onUrl={setPicUrl} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} hidden={!showNumber}>
            <Form.Item
              name="number"
              label={t('person.fields.number')}
              hidden={!showNumber}
              rules={[
                { max: LIMITS.personNumberMax, message: t('person.validation.max', { count: LIMITS.personNumberMax }) },
                { pattern: new RegExp(PERSON_NUMBER_PATTERN), message: t('person.validation.number') },
              ]}
            >
              <Input maxLength={LIMITS.personNumberMax} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('person.fields.name')}
              rules={[
                required,
                { whitespace: true, message: t('common.validation.required') },
                { max: LIMITS.personNameMax, message: t('person.validation.max', { count: LIMITS.personNameMax }) },
              ]}
            >
              <Input maxLength={LIMITS.personNameMax} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="phone" label={t('person.fields.phone')} rules={[required, { pattern: PHONE, message: t('person.validation.phone') }]}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="organizations" label={t('person.fields.organizations')} rules={[{ ...required, type: 'array', min: 1 }]}>
              {departments('person-organizations')}
            </Form.Item>
          </Col>
          <Col xs={24} md={12} hidden={!needCard}>
            <Form.Item
              name="rfid"
              label={t('person.fields.rfid')}
              hidden={!needCard}
              rules={[
                ...(needCard ? [required, { whitespace: true, message: t('common.validation.required') }] : []),
                { pattern: OPTIONAL_CARD, message: t('person.validation.card') },
              ]}
            >
              <Input maxLength={20} data-testid="person-rfid" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12} hidden={!needIdcard}>
            <Form.Item
              name="idcard"
              label={t('person.fields.idcard')}
              hidden={!needIdcard}
              rules={[
                ...(needIdcard ? [required, { whitespace: true, message: t('common.validation.required') }] : []),
                { pattern: IDCARD, message: t('person.validation.idcard') },
              ]}
            >
              <Input maxLength={20} data-testid="person-idcard" />
            </Form.Item>
          </Col>
          <Col span={24} hidden={!showPlates}>
            <Form.Item
              name="plates"
              label={t('person.fields.plates')}
              hidden={!showPlates}
              extra={t('person.hints.plates')}
              rules={[
                { type: 'array', max: LIMITS.platesMax, message: t('person.validation.platesMax', { max: LIMITS.platesMax }) },
                {
                  validator: (_, v: string[] | undefined) =>
                    (v ?? []).every((p) => PLATE.test(p.trim())) ? Promise.resolve() : Promise.reject(new Error(t('person.validation.plate'))),
                },
              ]}
            >
              <Select mode="tags" open={false} tokenSeparators={[',', ' ', '，']} data-testid="person-plates" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="address" label={t('person.fields.address')} rules={[{ max: 200, message: t('person.validation.max', { count: 200 }) }]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="description"
              label={t('person.fields.description')}
              rules={[{ max: LIMITS.longTextMax, message: t('person.validation.max', { count: LIMITS.longTextMax }) }]}
            >
              <Input.TextArea rows={2} maxLength={LIMITS.longTextMax} showCount />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="workStatus" label={t('person.fields.workStatus')}>
              <Radio.Group
                data-testid="person-work-status"
                options={[
                  { value: WORK_STATUS.working, label: t('person.workStatus.working') },
                  { value: WORK_STATUS.left, label: t('person.workStatus.left') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="gender" label={t('person.fields.gender')}>
              <Radio.Group
                data-testid="person-gender"
                options={[{ value: '', label: t('person.gender.unsaid') }, ...GENDERS.map((g) => ({ value: g, label: t(`person.gender.${g}`) }))]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="joined_on" label={t('person.fields.joinedOn')} extra={t('person.joinedOnHint')}>
              <DatePicker data-testid="person-joined-on" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="notify" label={t('person.fields.notify')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start" plain>
          {t('person.sections.access')}
        </Divider>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="user_pri" label={t('person.fields.userPri')}>
              <Radio.Group options={USER_PRI.map((v) => ({ value: v, label: t(`person.userPri.p${v}`) }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="accessRange" label={t('person.access.dates')} extra={t('person.access.datesHint')}>
              <DatePicker.RangePicker allowEmpty={[true, true]} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label={t('person.access.periods')} extra={t('person.access.periodsHint', { count: LIMITS.accessPeriodsMax })}>
              <PeriodsEditor />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="door_password"
              label={t('person.fields.doorPassword')}
              rules={[{ pattern: OPTIONAL_DOOR, message: t('person.validation.password') }]}
              extra={person?.has_door_password ? t('person.password.isSet') : undefined}
            >
              <Input.Password
                disabled={Boolean(clearDoor)}
                autoComplete="new-password"
                placeholder={person?.has_door_password ? t('person.password.unchanged') : t('person.password.none')}
              />
            </Form.Item>
            {person?.has_door_password && (
              <Form.Item name="clear_door_password" valuePropName="checked" style={{ marginTop: -12 }}>
                <Checkbox>{t('person.password.clear')}</Checkbox>
              </Form.Item>
            )}
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="remote_open" label={t('person.fields.remoteOpen')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start" plain>
          {t('person.sections.management')}
        </Divider>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="is_admin" label={t('person.fields.isAdmin')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            {isAdmin && (
              <Form.Item
                name="admin_password"
                label={t('person.fields.adminPassword')}
                rules={[
                  ...(adminPasswordRequired(Boolean(isAdmin), person) ? [required] : []),
                  { pattern: OPTIONAL_DOOR, message: t('person.validation.password') },
                ]}
              >
                <Input.Password
                  autoComplete="new-password"
                  placeholder={person?.has_admin_password ? t('person.password.unchanged') : t('person.password.none')}
                />
              </Form.Item>
            )}
          </Col>
          <Col span={24}>
            <Form.Item name="incharges" label={t('person.fields.incharges')} extra={t('person.inchargesHint')}>
              {departments('person-incharges')}
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {person && (
        <>
          <Divider titlePlacement="start" plain>
            {t('person.sections.devices')}
          </Divider>
          <PersonDevices personId={person.id} />
        </>
      )}
    </Drawer>
  );
}
