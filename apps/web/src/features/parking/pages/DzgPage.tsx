import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Result, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { CarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { ParkingBinding } from '@faceadmin/shared';
import { ApiError } from '../../../lib/request.ts';
import { useLogout, useSystemConfig, useUserInfo } from '../../../lib/session.ts';
import { setToken, useToken } from '../../../lib/token.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { LoginForm } from '../../auth/components/LoginForm.tsx';
import { RegisterForm } from '../../auth/components/RegisterForm.tsx';
import { dzgRegister, useDzgBind, useDzgCheck, useDzgSwitchCompany } from '../api.ts';

/**
 * /dzg (spec §2, public): a parking operator sends the user here with a signed code (docs/api-parking.md). The page
 * shows what would be bound, lets the user sign in or register, and a main administrator of the code's company
 * confirms (/dzg/bind). Outside the console's shell; the session it opens is the console's own.
 */
export default function DzgPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const check = useDzgCheck(code);
  const [bound, setBound] = useState<ParkingBinding & { company: string }>();
  useEffect(() => {
    document.title = t('parking.page.title');
  }, [t]);

  let body;
  if (bound)
    body = (
      <Result
        status="success"
        title={t('parking.page.done', { id: bound.dzg_id, company: bound.company })}
        extra={
          <Link to="/company/update">
            <Button type="primary">{t('parking.page.toCompany')}</Button>
          </Link>
        }
        data-testid="dzg-done"
      />
    );
  else if (!code) body = <Result status="warning" title={t('parking.page.noCode')} />;
  else if (check.isPending) body = <Spin style={{ display: 'block', margin: 48 }} />;
  else if (check.error) body = <Result status="error" title={t('parking.page.invalid')} subTitle={check.error.message} data-testid="dzg-invalid" />;
  else
    body = (
      <>
        <Descriptions column={1} bordered size="small" data-testid="dzg-details">
          <Descriptions.Item label={t('parking.fields.dzgId')}>{check.data.dzg_id}</Descriptions.Item>
          {check.data.lot_name && <Descriptions.Item label={t('parking.fields.lotName')}>{check.data.lot_name}</Descriptions.Item>}
          <Descriptions.Item label={t('parking.fields.company')}>{check.data.company.name}</Descriptions.Item>
          <Descriptions.Item label={t('parking.fields.expires')}>{formatDateTime(check.data.expires_at)}</Descriptions.Item>
        </Descriptions>
        {check.data.bound && <Alert type="info" showIcon style={{ marginTop: 12 }} title={t('parking.page.alreadyBound')} />}
        <div style={{ marginTop: 16 }}>
          <Confirm
            code={code}
            dzgId={check.data.dzg_id}
            companyId={check.data.company.id}
            companyName={check.data.company.name}
            onBound={(b) => setBound({ ...b, company: check.data.company.name })}
          />
        </div>
      </>
    );

  return (
    <div style={{ minHeight: '100vh', background: '#f5f6f8', padding: '32px 12px' }}>
      <Card
        style={{ maxWidth: 560, margin: '0 auto' }}
        title={
          <Space>
            <CarOutlined />
            {t('parking.page.title')}
          </Space>
        }
        data-testid="dzg-page"
      >
        {body}
      </Card>
    </div>
  );
}

/** Sign in or register, then confirm as a main administrator of the code's company (switching to it if needed). */
function Confirm(props: { code: string; dzgId: string; companyId: number; companyName: string; onBound: (b: ParkingBinding) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const token = useToken();
  const signOut = useLogout();
  const user = useUserInfo();
  const config = useSystemConfig().data;
  const bind = useDzgBind();
  const switchCompany = useDzgSwitchCompany();
  const [error, setError] = useState('');

  if (!token)
    return (
      <>
        <Typography.Paragraph>{t('parking.page.signInFirst')}</Typography.Paragraph>
        <Tabs
          items={[
            { key: 'login', label: t('auth.signIn'), children: <LoginForm onToken={setToken} /> },
            ...(config?.registration
              ? [
                  {
                    key: 'register',
                    label: t('auth.register'),
                    children: <RegisterForm onToken={setToken} send={(body) => dzgRegister({ ...body, code: props.code })} />,
                  },
                ]
              : []),
          ]}
        />
      </>
    );
  if (user.isPending) return <Spin />;
  if (user.error || !user.data) return <Alert type="error" showIcon title={user.error?.message ?? t('parking.page.invalid')} />;

  const u = user.data;
  const member = u.companys.some((c) => c.id === props.companyId);
  const current = u.company === props.companyId;
  const isMain = u.roles.includes('main');
  const confirm = async () => {
    setError('');
    try {
      const b = await bind.mutateAsync({ code: props.code, dzg_id: props.dzgId });
      message.success(t('parking.page.bound'));
      props.onBound(b);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text data-testid="dzg-signed-in">{t('parking.page.signedInAs', { name: u.name })}</Typography.Text>
        <Button size="small" onClick={() => void signOut()}>
          {t('parking.page.otherAccount')}
        </Button>
      </Space>
      {error && <Alert type="error" showIcon title={error} data-testid="dzg-error" />}
      {!member ? (
        <Alert type="warning" showIcon title={t('parking.page.notMember', { company: props.companyName })} />
      ) : !current ? (
        <Button loading={switchCompany.isPending} onClick={() => switchCompany.mutate(props.companyId)} data-testid="dzg-switch">
          {t('parking.page.switchTo', { company: props.companyName })}
        </Button>
      ) : !isMain ? (
        <Alert type="warning" showIcon title={t('parking.page.mainOnly')} />
      ) : (
        <Button type="primary" block loading={bind.isPending} onClick={() => void confirm()} data-testid="dzg-confirm">
          {t('parking.page.confirm', { id: props.dzgId, company: props.companyName })}
        </Button>
      )}
      {current && isMain && <Tag color="blue">{t('parking.page.willReceive')}</Tag>}
    </Space>
  );
}
