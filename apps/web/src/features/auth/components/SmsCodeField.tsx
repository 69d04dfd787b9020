import { useEffect, useState } from 'react';
import { Button, Flex, Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSendSms } from '../api.ts';

interface Props {
  form: FormInstance;
  purpose: 'register' | 'forget';
  captchaId: string | undefined;
  /** Called after a send attempt: a used captcha must be replaced. */
  onCaptchaUsed: () => void;
}

const DEFAULT_COOLDOWN = 60;

/** SMS code input with a send button and a 60 s cooldown (spec §5). Sending needs the mobile and captcha. */
export function SmsCodeField({ form, purpose, captchaId, onCaptchaUsed }: Props) {
  const { t } = useTranslation();
  const send = useSendSms();
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);

  const onSend = async () => {
    const { mobile, icode } = await form.validateFields(['mobile', 'icode']);
    try {
      const res = await send.mutateAsync({ phone: mobile as string, purpose, icode: icode as string, captcha_id: captchaId ?? '' });
      setLeft(res.cooldown || DEFAULT_COOLDOWN);
    } finally {
      onCaptchaUsed();
    }
  };

  return (
    <Form.Item required label={t('auth.fields.smscode')}>
      <Flex gap={8}>
        <Form.Item name="smscode" noStyle rules={[{ required: true, message: t('auth.validation.smsRequired') }]}>
          <Input placeholder={t('auth.fields.smscode')} autoComplete="one-time-code" />
        </Form.Item>
        <Button disabled={left > 0} loading={send.isPending} onClick={() => void onSend().catch(() => undefined)}>
          {left > 0 ? t('auth.smsResend', { seconds: left }) : t('auth.sendSms')}
        </Button>
      </Flex>
    </Form.Item>
  );
}
