import { useState } from 'react';
import { App, Image, Spin, Upload } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@faceadmin/shared';
import { uploadFace } from '../api.ts';
import { portraitCrop } from '../logic.ts';

interface Props {
  /** the uploaded picture's name (`pic` of the API) */
  value?: string;
  onChange?: (pic: string) => void;
  /** where the current picture can be shown (`pic_url`) */
  url: string | undefined;
  onUrl: (url: string) => void;
}

/** Crops to a 3:4 portrait on a canvas before uploading; falls back to the original when the browser cannot decode it. */
async function cropToPortrait(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const c = portraitCrop(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = c.dw;
    canvas.height = c.dh;
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    ctx.drawImage(bitmap, c.sx, c.sy, c.sw, c.sh, 0, 0, c.dw, c.dh);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
    return blob ?? file;
  } catch {
    return file;
  }
}

/** Face picture field: antd Upload to /person/upload (X-Token header), with a preview of the stored or new picture. */
export function FaceUpload({ value, onChange, url, onUrl }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }} data-testid="face-upload">
      {value && url ? <Image src={url} width={96} height={128} style={{ objectFit: 'cover', borderRadius: 6 }} alt="" data-testid="face-preview" /> : null}
      <Upload
        accept="image/jpeg,image/png"
        listType="picture-card"
        showUploadList={false}
        beforeUpload={(file) => {
          if (!['image/jpeg', 'image/png'].includes(file.type)) {
            message.error(t('person.face.type'));
            return Upload.LIST_IGNORE;
          }
          if (file.size > LIMITS.photoMaxBytes) {
            message.error(t('person.face.size', { mb: LIMITS.photoMaxBytes / 1024 / 1024 }));
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onSuccess, onError }) => {
          setBusy(true);
          void (async () => {
            try {
              const blob = await cropToPortrait(file as File);
              const r = await uploadFace(blob, 'face.jpg');
              onUrl(r.pic_url);
              onChange?.(r.pic);
              onSuccess?.(r);
            } catch (e) {
              onError?.(e instanceof Error ? e : new Error(String(e)));
            } finally {
              setBusy(false);
            }
          })();
        }}
      >
        <Spin spinning={busy}>
          <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4, padding: 8 }}>
            <PlusOutlined />
            <span style={{ fontSize: 12 }}>{value ? t('person.face.replace') : t('person.face.upload')}</span>
          </div>
        </Spin>
      </Upload>
    </div>
  );
}
