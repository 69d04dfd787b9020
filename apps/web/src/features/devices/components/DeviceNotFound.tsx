import { CODES } from '@faceadmin/shared';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/request.ts';

/** Whether a device page's id names no device of this company (not a number, or the server says not found). */
export const deviceUnknown = (id: number, error: unknown) => !Number.isInteger(id) || id <= 0 || (error instanceof ApiError && error.code === CODES.NOT_FOUND);

/** A device page's one message for an unknown id (its queries do not toast: `inline`), with the way back to the list. */
export function DeviceNotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('device.notFound')}
      extra={<Button onClick={() => void navigate('/device/list')}>{t('device.back')}</Button>}
      data-testid="device-not-found"
    />
  );
}
