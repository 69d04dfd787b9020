import { useEffect } from 'react';
import { App, Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { SITE_LIMITS, type Site } from '@faceadmin/shared';
import { SaveModal } from '../../../ui/SaveModal.tsx';
import { useCreateSite, useUpdateSite } from '../api.ts';
import { isTileUrl } from '../logic.ts';

interface Values {
  name: string;
  sort: number;
  tile_url: string;
}

/** Adds a site or renames one; the optional tile URL makes it a tile map instead of a floor plan. */
export function SiteDialog({ open, site, onClose, onSaved }: { open: boolean; site: Site | undefined; onClose: () => void; onSaved: (s: Site) => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const create = useCreateSite();
  const update = useUpdateSite();

  useEffect(() => {
    if (open) form.setFieldsValue({ name: site?.name ?? '', sort: site?.sort ?? 0, tile_url: site?.tile_url ?? '' });
  }, [open, site, form]);

  const save = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const body = { name: v.name.trim(), sort: v.sort ?? 0, tile_url: (v.tile_url ?? '').trim() };
    const run = async () => {
      try {
        const saved = site ? await update.mutateAsync({ id: site.id, ...body }) : await create.mutateAsync(body);
        message.success(t('common.saved'));
        onSaved(saved);
      } catch {
        // shown by the API client
      }
    };
    // floor plan ↔ tile map: the server takes the placements off (their coordinates would mean something else)
    const placed = site ? site.devices + site.breakers : 0;
    if (site && placed > 0 && (site.tile_url === '') !== (body.tile_url === '')) {
      modal.confirm({
        title: t('map.modeChangeConfirm'),
        content: t('map.modeChangeHint', { count: placed }),
        okText: t('common.actions.ok'),
        okButtonProps: { danger: true },
        cancelText: t('common.actions.cancel'),
        onOk: run,
      });
      return;
    }
    await run();
  };

  return (
    <SaveModal
      title={site ? t('map.editSite') : t('map.createSite')}
      open={open}
      onClose={onClose}
      onSave={() => void save()}
      saving={create.isPending || update.isPending}
      testId="site-save"
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="name"
          label={t('map.fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('common.validation.required') },
            { max: SITE_LIMITS.nameMax, message: t('common.validation.accountMax', { max: SITE_LIMITS.nameMax }) },
          ]}
        >
          <Input maxLength={SITE_LIMITS.nameMax} data-testid="site-name" />
        </Form.Item>
        <Form.Item name="sort" label={t('map.fields.sort')}>
          <InputNumber min={0} max={SITE_LIMITS.sortMax} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="tile_url"
          label={t('map.fields.tileUrl')}
          extra={t('map.tileUrlHint')}
          rules={[
            { max: SITE_LIMITS.tileUrlMax, message: t('common.validation.accountMax', { max: SITE_LIMITS.tileUrlMax }) },
            { validator: (_, v: string | undefined) => (isTileUrl((v ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(t('map.tileUrlInvalid')))) },
          ]}
        >
          <Input placeholder="https://tile.example.com/{z}/{x}/{y}.png" maxLength={SITE_LIMITS.tileUrlMax} allowClear data-testid="site-tile-url" />
        </Form.Item>
      </Form>
    </SaveModal>
  );
}
