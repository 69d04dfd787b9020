import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function ErrorPage({ status }: { status: 404 | 401 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status === 404 ? '404' : '403'}
      title={status}
      subTitle={status === 404 ? t('errors.notFound') : t('errors.noAuthority')}
      extra={
        <Button type="primary" onClick={() => void navigate('/', { replace: true })}>
          {t('errors.backHome')}
        </Button>
      }
    />
  );
}
