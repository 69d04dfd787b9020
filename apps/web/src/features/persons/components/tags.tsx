import { Badge, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PersonTag } from '@faceadmin/shared';

const TAG_COLOR: Record<PersonTag, string> = { admin: 'gold', manager: 'blue', working: 'green', left: 'red' };

/** spec §3 tags: primary admin, manager (department head), working, left. */
export function PersonTags({ tags }: { tags: PersonTag[] }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {tags.map((tag) => (
        <Tag key={tag} color={TAG_COLOR[tag]} data-tag={tag}>
          {t(`person.tags.${tag}`)}
        </Tag>
      ))}
    </Space>
  );
}

const SYNC_BADGE = ['default', 'success', 'error'] as const;
const SYNC_KEYS = ['notSynced', 'synced', 'failed'] as const;

/** spec §4: 0 not synced, 1 synced, 2 failed. */
export function SyncStatus({ value }: { value: number }) {
  const { t } = useTranslation();
  const i = value === 1 || value === 2 ? value : 0;
  return <Badge status={SYNC_BADGE[i]} text={t(`person.sync.${SYNC_KEYS[i]}`)} data-testid="person-sync-status" data-status={i} />;
}

export const SYNC_OPTIONS = SYNC_KEYS.map((k, value) => ({ value, key: k }));
