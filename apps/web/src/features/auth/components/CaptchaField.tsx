import { Flex, Form, Input, Tooltip } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CaptchaImage } from '@faceadmin/shared';

interface Props {
  captcha: CaptchaImage | undefined;
  onRefresh: () => void;
}

/** Image captcha: the answer goes in `icode`; the image id is sent separately as captcha_id. */
export function CaptchaField({ captcha, onRefresh }: Props) {
  const { t } = useTranslation();
  return (
    <Form.Item required label={t('auth.fields.captcha')}>
      <Flex gap={8}>
        <Form.Item name="icode" noStyle rules={[{ required: true, message: t('auth.validation.captchaRequired') }]}>
          <Input prefix={<SafetyOutlined />} placeholder={t('auth.fields.captcha')} autoComplete="off" data-testid="captcha-input" />
        </Form.Item>
        <Tooltip title={t('auth.refreshCaptcha')}>
          {captcha ? (
            <img className="fa-captcha" src={captcha.image} alt={t('auth.fields.captcha')} onClick={onRefresh} />
          ) : (
            <span className="fa-captcha" style={{ width: 100 }} />
          )}
        </Tooltip>
      </Flex>
    </Form.Item>
  );
}
