import { useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Result, Select, Space, Spin, Typography, Upload } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { setLanguage, useLanguage } from '../../../lib/i18n.ts';
import { LANGUAGE_LABEL, LANGUAGES } from '../../../lib/languages.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { showVisit, uploadVisitFace } from '../api.ts';

/**
 * /visit/<token> (#19): the visitor's phone page, outside the console and its sign-in. The visitor sees the
 * invitation and uploads a face photo (the same checks as people's photos, the reason shown when refused); once it
 * is there the doors of the invitation learn the face, valid only within the window.
 */
export default function VisitPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const lang = useLanguage();
  const qc = useQueryClient();
  const key = ['visit', token];
  const visit = useQuery({ queryKey: key, queryFn: () => showVisit(token), retry: false });
  const [error, setError] = useState<string>();
  useEffect(() => {
    document.title = t('visitor.page.title');
  }, [t]);
  const face = useMutation({
    mutationFn: (file: File) => uploadVisitFace(token, file),
    onSuccess: (v) => {
      setError(undefined);
      qc.setQueryData(key, v);
    },
    onError: (e) => setError(e.message),
  });

  const v = visit.data;
  return (
    <div style={{ minHeight: '100vh', background: '#f5f6f8' }}>
      <div style={{ maxWidth: 520, margin: '0 auto', padding: 16 }} data-testid="visit-page">
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('visitor.page.title')}
          </Typography.Title>
          <Select
            size="small"
            value={lang}
            onChange={(l) => void setLanguage(l)}
            options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABEL[l] }))}
            aria-label={t('layout.language')}
            style={{ width: 110 }}
          />
        </Space>
        {visit.isLoading ? (
          <Spin size="large" style={{ display: 'block', margin: '80px auto' }} />
        ) : visit.error || !v ? (
          <Result status="warning" title={visit.error?.message ?? t('visitor.page.invalid')} data-testid="visit-invalid" />
        ) : (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Card>
              <Typography.Title level={5} style={{ marginTop: 0 }} data-testid="visit-welcome">
                {t('visitor.page.welcome', { name: v.name, host: v.host })}
              </Typography.Title>
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('visitor.fields.inviter')}>{v.inviter}</Descriptions.Item>
                <Descriptions.Item label={t('visitor.fields.reason')}>{v.reason}</Descriptions.Item>
                <Descriptions.Item label={t('visitor.fields.window')}>
                  {formatDateTime(v.starts_at, v.time_zone).slice(0, 16)} – {formatDateTime(v.ends_at, v.time_zone).slice(0, 16)}
                </Descriptions.Item>
                <Descriptions.Item label={t('visitor.fields.doors')}>{v.doors.join(', ')}</Descriptions.Item>
              </Descriptions>
            </Card>
            <Card title={t('visitor.page.face')}>
              {v.has_face && <Alert type="success" showIcon title={t('visitor.page.faceDone')} style={{ marginBottom: 12 }} data-testid="visit-face-done" />}
              {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="visit-face-error" />}
              <Typography.Paragraph type="secondary">{t('visitor.page.faceHint')}</Typography.Paragraph>
              <Upload
                accept="image/jpeg,image/png"
                capture="user"
                showUploadList={false}
                beforeUpload={(file) => {
                  face.mutate(file);
                  return false;
                }}
              >
                <Button type="primary" size="large" block icon={<CameraOutlined />} loading={face.isPending} data-testid="visit-face-upload">
                  {v.has_face ? t('visitor.page.faceAgain') : t('visitor.page.faceUpload')}
                </Button>
              </Upload>
            </Card>
          </Space>
        )}
      </div>
    </div>
  );
}
