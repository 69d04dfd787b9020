import { useRef, useState } from 'react';
import { App, Badge, Button, Card, Image, Space, Tag, Typography } from 'antd';
import { PictureOutlined, UserAddOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LivePhoto, Stranger } from '@faceadmin/shared';
import { useLiveEvent, useLiveInvalidate } from '../../../lib/live.ts';
import { useRightLevel } from '../../../lib/session.ts';
import { ListPage, useListQuery } from '../../../ui/ListPage.tsx';
import { deviceFilter } from '../../devices/components/DeviceFilter.tsx';
import { PersonDrawer } from '../../persons/components/PersonDrawer.tsx';
import { capturedPhoto, strangerKeys, useExportStrangers, useStrangers } from '../api.ts';
import { fits, fromLive, withArrival, withPhoto, type StrangerFilters } from '../logic.ts';

type Page = { items: Stranger[]; total: number; page: number; pageSize: number };

function StrangerCard({ s, fresh, canAdd, onAdd, adding }: { s: Stranger; fresh: boolean; canAdd: boolean; onAdd: () => void; adding: boolean }) {
  const { t } = useTranslation();
  const card = (
    <Card
      size="small"
      style={{ height: '100%' }}
      data-testid="stranger-card"
      cover={
        s.pic_url ? (
          <Image
            src={s.pic_url}
            alt={t(`stranger.kinds.${s.kind}`)}
            style={{ aspectRatio: '3 / 4', objectFit: 'cover', width: '100%' }}
            data-testid="stranger-photo"
          />
        ) : (
          <div
            style={{ aspectRatio: '3 / 4', display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 32, opacity: 0.35 }}
            title={t('stranger.noPhoto')}
          >
            <PictureOutlined />
          </div>
        )
      }
      styles={{ body: { padding: 10 } }}
    >
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        {s.kind === 'refused' ? (
          <Tag color="orange" style={{ marginInlineEnd: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid="stranger-kind">
            {t('stranger.refusedWho', { name: s.name || s.number })}
          </Tag>
        ) : (
          <Tag color="volcano" style={{ marginInlineEnd: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid="stranger-kind">
            {/* a number the terminal knows but no one here has (a site taken over, say): adding them attaches these punches */}
            {s.number ? t('stranger.unknownNumber', { number: s.number }) : t('stranger.kinds.unknown')}
          </Tag>
        )}
        <Typography.Text strong ellipsis={{ tooltip: s.device }}>
          {s.device}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {s.day} {s.time}
          {s.temperature !== null ? ` · ${s.temperature.toFixed(1)} °C` : ''}
        </Typography.Text>
        {canAdd && s.kind === 'unknown' && (s.pic_url || s.number) ? (
          <Button size="small" block icon={<UserAddOutlined />} loading={adding} onClick={onAdd} data-testid="stranger-add-person">
            {t('stranger.addPerson')}
          </Button>
        ) : null}
      </Space>
    </Card>
  );
  return fresh ? (
    <Badge.Ribbon text={t('stranger.new')} color="red">
      {card}
    </Badge.Ribbon>
  ) : (
    card
  );
}

/**
 * /stranger (spec §2, hidden; reached from the dashboard and the consoles): the faces the terminals refused, an
 * unknown face or a registered person, newest first as photo cards; filters by device and days, export, and
 * "Add as a person" opening the person form with the capture as the face picture. New ones appear as they arrive.
 */
export default function StrangerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canAdd = useRightLevel('person').canEdit;
  const state = useListQuery<StrangerFilters>({}, 24);
  const query = state.query;
  const list = useStrangers(query);
  const exportList = useExportStrangers();
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const [adding, setAdding] = useState<number>();
  const [drawer, setDrawer] = useState<{ open: boolean; photo?: File; number?: string }>({ open: false });
  const refetchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const key = strangerKeys.list(query);
  // A stranger arrives as a punch event flagged `stranger`: shown at once on the first page, then the page is
  // refetched (once for a burst) for the server's own shape (kind, the refused person's name).
  useLiveEvent('punch', (p) => {
    if (!p.stranger) return;
    const s = fromLive(p);
    if (fits(query, s)) {
      qc.setQueryData<Page>(key, (old) => withArrival(old, s));
      setFresh((f) => new Set(f).add(s.id));
    }
    if (!refetchTimer.current)
      refetchTimer.current = setTimeout(() => {
        refetchTimer.current = undefined;
        void qc.invalidateQueries({ queryKey: strangerKeys.all });
      }, 1_500);
  });
  // The capture usually follows its record a moment later (for a stranger they come together).
  useLiveEvent('photo', (ph: LivePhoto) => {
    qc.setQueriesData<Page>({ queryKey: strangerKeys.all }, (old) => withPhoto(old, ph.id, ph.pic_url));
  });
  // A stranger alarm, or a stream that lost its place: the list is read again.
  useLiveInvalidate(['alarm'], strangerKeys.all);

  const addPerson = async (s: Stranger) => {
    setAdding(s.id);
    let photo: File | undefined;
    try {
      if (s.pic_url) photo = await capturedPhoto(s.pic_url, s.id);
    } catch {
      message.error(t('stranger.photoFailed'));
      // without the capture, a number the terminal knows is still enough to make the person
      if (!s.number) return setAdding(undefined);
    }
    setAdding(undefined);
    // the capture as the face, and the number the terminal knows them by (the person made takes their punches)
    setDrawer({ open: true, ...(photo ? { photo } : {}), ...(s.number ? { number: s.number } : {}) });
  };

  return (
    <ListPage<Stranger, StrangerFilters>
      title={t('route.stranger')}
      testId="stranger-page"
      tableTestId="stranger-grid"
      columns={[]}
      gallery={{
        render: (s) => <StrangerCard s={s} fresh={fresh.has(s.id)} canAdd={canAdd} adding={adding === s.id} onAdd={() => void addPerson(s)} />,
      }}
      empty={t('stranger.empty')}
      state={state}
      list={list}
      pageSizeOptions={[24, 48, 96]}
      filters={[deviceFilter(t('stranger.device'), 'stranger-device-filter'), { kind: 'dayRange', from: 'from', to: 'to', testId: 'stranger-range' }]}
      exporter={{ pending: exportList.isPending, bytes: exportList.bytes, run: () => exportList.mutate(query), testId: 'stranger-export' }}
    >
      <PersonDrawer
        open={drawer.open}
        person={undefined}
        initialPhoto={drawer.photo}
        initialNumber={drawer.number}
        onClose={() => setDrawer({ open: false })}
      />
    </ListPage>
  );
}
