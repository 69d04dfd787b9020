import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Badge, Button, Card, Empty, Input, List, Result, Space, Spin, Tabs, Tag, Tooltip, Typography, Upload } from 'antd';
import { AimOutlined, CameraOutlined, DeleteOutlined, EditOutlined, PlusOutlined, ThunderboltOutlined, UploadOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SITE_LIMITS, type LiveAlarm, type MapItem, type Placement, type PlacementKind, type Site, type SiteDetail } from '@faceadmin/shared';
import { useLiveEvent } from '../../../lib/live.ts';
import { useRightLevel } from '../../../lib/session.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { useDeleteSite, useMapRights, usePlace, useSite, useSites, useUnplace, useUploadPlan } from '../api.ts';
import { SiteDialog } from '../components/SiteDialog.tsx';
import { DRAG_TYPE, SiteMap, type SiteMapHandle } from '../components/SiteMap.tsx';
import { ALARM_HOLD_MS, itemKey, modeOf } from '../logic.ts';
import '../map.css';

const PLAN_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const STATE_BADGE = { online: 'success', offline: 'default', alarm: 'error' } as const;

/** A live alarm on a device or breaker, red on the map until someone opens it or it is old. */
interface Flag {
  alarm: LiveAlarm;
  at: number;
  seen: boolean;
}

/**
 * /map (spec §2; issue #16): the company's sites, each its own floor plan (or a tile map) with the devices and
 * breakers placed on it, coloured live (online green, offline grey, alarm red). An administrator with face-device
 * edit manages sites, uploads plans and drags devices and breakers onto them; everyone else who may see devices
 * or breakers reads the map.
 */
export default function MapPage() {
  const { t } = useTranslation();
  const { canView, canEdit } = useMapRights();
  const sites = useSites(canView);
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<{ open: boolean; site?: Site | undefined }>({ open: false });

  const list = sites.data ?? [];
  const wanted = Number(params.get('site'));
  const current = list.find((s) => s.id === wanted) ?? list[0];
  const choose = (id: number) => setParams((p) => ({ ...Object.fromEntries(p), site: String(id) }), { replace: true });

  if (!canView) return <Result status="403" title={t('errors.noAuthority')} />;
  if (sites.isPending) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (sites.isError)
    return <Result status="warning" title={t('common.loadFailed')} extra={<Button onClick={() => void sites.refetch()}>{t('common.actions.retry')}</Button>} />;

  return (
    <Card className="fa-map-page" styles={{ body: { paddingTop: 8 } }} data-testid="map-page">
      {/* the button beside the tabs, not inside their tab list (which may hold only tabs) */}
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Tabs
          style={{ flex: 1, minWidth: 0 }}
          activeKey={current ? String(current.id) : undefined}
          onChange={(k) => choose(Number(k))}
          items={list.map((s) => ({ key: String(s.id), label: <span data-testid="site-tab">{s.name}</span> }))}
        />
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true })} data-testid="site-create">
            {t('map.createSite')}
          </Button>
        )}
      </div>
      {current ? (
        <SiteView key={current.id} site={current} canEdit={canEdit} onEdit={() => setDialog({ open: true, site: current })} />
      ) : (
        <Empty
          description={
            <Space orientation="vertical">
              {t('map.noSites')}
              <Typography.Text type="secondary">{canEdit ? t('map.noSitesHintEdit') : t('map.noSitesHintView')}</Typography.Text>
            </Space>
          }
        />
      )}
      <SiteDialog
        open={dialog.open}
        site={dialog.site}
        onClose={() => setDialog({ open: false })}
        onSaved={(s) => {
          setDialog({ open: false });
          choose(s.id);
        }}
      />
    </Card>
  );
}

function SiteView({ site, canEdit, onEdit }: { site: Site; canEdit: boolean; onEdit: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const detail = useSite(site.id);
  const place = usePlace(site.id);
  const unplace = useUnplace();
  const uploadPlan = useUploadPlan();
  const remove = useDeleteSite();
  const mapHandle = useRef<SiteMapHandle>(null);
  const [selected, setSelected] = useState<string>();
  const [keyword, setKeyword] = useState('');
  const [flags, setFlags] = useState<ReadonlyMap<string, Flag>>(new Map());
  const d: SiteDetail | undefined = detail.data;
  const mode = modeOf(site);

  // Live alarms (a fever, a stranger, a breaker alarm) turn the marker red until it is opened or grows old.
  useLiveEvent('alarm', (a) => {
    if (a.kind === 'offline') return; // shown grey by the presence events
    const key = a.breaker_id ? itemKey({ kind: 'breaker', ref_id: a.breaker_id }) : a.device_id ? itemKey({ kind: 'device', ref_id: a.device_id }) : undefined;
    if (key) setFlags((m) => new Map(m).set(key, { alarm: a, at: Date.now(), seen: false }));
  });
  useEffect(() => {
    const timer = setInterval(() => {
      setFlags((m) => {
        const old = [...m].filter(([, f]) => Date.now() - f.at > ALARM_HOLD_MS);
        if (!old.length) return m;
        const next = new Map(m);
        for (const [k] of old) next.delete(k);
        return next;
      });
    }, 30_000);
    return () => clearInterval(timer);
  }, []);
  const alarmed = useMemo(() => new Set([...flags].filter(([, f]) => !f.seen).map(([k]) => k)), [flags]);
  const select = (key: string | undefined) => {
    setSelected(key);
    if (key && flags.get(key)?.seen === false) setFlags((m) => new Map(m).set(key, { ...m.get(key)!, seen: true }));
  };

  const doPlace = async (kind: PlacementKind, refId: number, x: number, y: number) => {
    try {
      await place.place({ site_id: site.id, kind, ref_id: refId, x, y });
    } catch {
      // shown by the API client; the refetch puts the marker back
    }
  };
  const doUnplace = async (p: Placement) => {
    try {
      await unplace.mutateAsync({ site_id: site.id, kind: p.kind, ref_id: p.ref_id });
      setSelected(undefined);
      message.success(t('map.removed'));
    } catch {
      // shown by the API client
    }
  };
  const placeAtCentre = (i: MapItem) => {
    const spot = mapHandle.current?.centre();
    if (spot) void doPlace(i.kind, i.ref_id, spot.x, spot.y);
  };

  const beforeUpload = (file: File) => {
    if (!PLAN_TYPES.includes(file.type)) message.error(t('map.planTypeError'));
    else if (file.size > SITE_LIMITS.imageMaxBytes) message.error(t('map.planSizeError', { mb: SITE_LIMITS.imageMaxBytes / 1024 / 1024 }));
    else
      uploadPlan.mutate(
        { siteId: site.id, file },
        {
          onSuccess: () => {
            message.success(t('map.planUploaded'));
          },
        },
      );
    return false;
  };
  const confirmDelete = () =>
    modal.confirm({
      title: t('map.deleteConfirm', { name: site.name }),
      content: t('map.deleteHint', { count: site.devices + site.breakers }),
      okText: t('common.actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync(site.id);
          message.success(t('common.deleted'));
        } catch {
          // shown by the API client
        }
      },
    });

  const kw = keyword.trim().toLowerCase();
  const match = (i: MapItem) => !kw || i.name.toLowerCase().includes(kw);
  const placed = (d?.placements ?? []).filter(match);
  const unplaced = (d?.unplaced ?? []).filter(match);
  const selectedItem = d?.placements.find((p) => itemKey(p) === selected);
  const draggable = canEdit && mode !== 'none';

  return (
    <>
      <div className="fa-map-toolbar">
        <Space wrap size={[8, 4]}>
          <Typography.Text type="secondary">{t('map.counts', { devices: site.devices, breakers: site.breakers })}</Typography.Text>
          {mode === 'tiles' ? (
            <Tag>{t('map.tileMap')}</Tag>
          ) : mode === 'plan' ? (
            <Tag>{t('map.planSize', { width: site.image_width, height: site.image_height })}</Tag>
          ) : null}
          {!canEdit && <Tag color="default">{t('map.readOnly')}</Tag>}
        </Space>
        {canEdit && (
          <Space wrap size={[8, 4]}>
            {/* a tile map draws no plan: the upload comes back when the tile URL is cleared */}
            {mode !== 'tiles' && (
              <Upload accept={PLAN_TYPES.join(',')} showUploadList={false} beforeUpload={beforeUpload} disabled={uploadPlan.isPending}>
                <Button icon={<UploadOutlined />} loading={uploadPlan.isPending} data-testid="site-upload">
                  {site.image_url ? t('map.replacePlan') : t('map.uploadPlan')}
                </Button>
              </Upload>
            )}
            <Button icon={<EditOutlined />} onClick={onEdit} data-testid="site-edit">
              {t('common.actions.edit')}
            </Button>
            <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} data-testid="site-delete">
              {t('common.actions.delete')}
            </Button>
          </Space>
        )}
      </div>
      <div className="fa-map-layout">
        <div className="fa-map-main">
          {mode === 'none' ? (
            <div className="fa-map-canvas fa-map-empty">
              <Empty
                description={
                  <Space orientation="vertical">
                    {t('map.noPlan')}
                    <Typography.Text type="secondary">{canEdit ? t('map.noPlanHintEdit') : t('map.noPlanHintView')}</Typography.Text>
                  </Space>
                }
              />
            </div>
          ) : d ? (
            <SiteMap
              ref={mapHandle}
              site={d}
              canEdit={canEdit}
              alarmed={alarmed}
              selected={selected}
              onSelect={select}
              popup={
                selectedItem ? (
                  <ItemPopup item={selectedItem} flag={flags.get(itemKey(selectedItem))} canEdit={canEdit} onUnplace={() => void doUnplace(selectedItem)} />
                ) : null
              }
              onPlace={(kind, refId, x, y) => void doPlace(kind, refId, x, y)}
              onOffPlan={() => message.warning(t('map.offPlan'))}
            />
          ) : (
            <div className="fa-map-canvas fa-map-empty">{detail.isError ? <Result status="warning" title={t('common.loadFailed')} /> : <Spin />}</div>
          )}
          <div className="fa-map-legend">
            {(['online', 'offline', 'alarm'] as const).map((s) => (
              <Badge key={s} status={STATE_BADGE[s]} text={t(`map.states.${s}`)} />
            ))}
          </div>
        </div>
        <div className="fa-map-side">
          <Input.Search allowClear placeholder={t('map.search')} value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ marginBottom: 8 }} />
          {draggable && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('map.dragHint')}
            </Typography.Paragraph>
          )}
          <Typography.Title level={5}>{t('map.placed', { count: placed.length })}</Typography.Title>
          <List
            size="small"
            dataSource={placed}
            locale={{ emptyText: t('map.nothingPlaced') }}
            renderItem={(p) => (
              <List.Item
                className={`fa-map-item${itemKey(p) === selected ? ' fa-map-item--selected' : ''}`}
                onClick={() => select(itemKey(p))}
                data-testid="map-placed"
              >
                <ItemLine item={p} red={alarmed.has(itemKey(p))} />
              </List.Item>
            )}
          />
          <Typography.Title level={5} style={{ marginTop: 12 }}>
            {t('map.unplaced', { count: unplaced.length })}
          </Typography.Title>
          <List
            size="small"
            dataSource={unplaced}
            locale={{ emptyText: t('map.allPlaced') }}
            renderItem={(i) => (
              <List.Item
                className={`fa-map-item${draggable ? ' fa-map-item--draggable' : ''}`}
                draggable={draggable}
                onDragStart={(e) => {
                  e.dataTransfer.setData(DRAG_TYPE, JSON.stringify({ kind: i.kind, ref_id: i.ref_id }));
                  e.dataTransfer.effectAllowed = 'move';
                }}
                data-testid="map-unplaced"
                actions={
                  draggable
                    ? [
                        <Tooltip key="centre" title={t('map.placeHere')}>
                          <Button size="small" type="text" icon={<AimOutlined />} aria-label={t('map.placeHere')} onClick={() => placeAtCentre(i)} />
                        </Tooltip>,
                      ]
                    : []
                }
              >
                <ItemLine item={i} red={alarmed.has(itemKey(i))} />
              </List.Item>
            )}
          />
        </div>
      </div>
    </>
  );
}

function ItemLine({ item, red }: { item: MapItem; red: boolean }) {
  const { t } = useTranslation();
  const state = red ? 'alarm' : item.state;
  return (
    <Space size={6} style={{ minWidth: 0 }}>
      <Badge status={STATE_BADGE[state]} />
      {item.kind === 'device' ? <CameraOutlined title={t('map.kinds.device')} /> : <ThunderboltOutlined title={t('map.kinds.breaker')} />}
      <Typography.Text ellipsis style={{ maxWidth: 200 }}>
        {item.name}
      </Typography.Text>
    </Space>
  );
}

function ItemPopup({ item, flag, canEdit, onUnplace }: { item: Placement; flag: Flag | undefined; canEdit: boolean; onUnplace: () => void }) {
  const { t } = useTranslation();
  const faceView = useRightLevel('face').canView;
  const state = flag && !flag.seen ? 'alarm' : item.state;
  const link = item.kind === 'breaker' ? `/circuitBreaker/${item.ref_id}` : faceView ? '/device/list' : undefined;
  return (
    <div className="fa-map-popup" data-testid="map-popup">
      <Typography.Text strong>{item.name}</Typography.Text>
      <div>
        <Tag>{t(`map.kinds.${item.kind}`)}</Tag>
        <Badge status={STATE_BADGE[state]} text={t(`map.states.${state}`)} />
      </div>
      {flag && (
        <Typography.Text type="danger">
          {t('map.alarm', { source: t(`map.alarmSources.${flag.alarm.source}`), subject: flag.alarm.subject, time: formatDateTime(flag.alarm.at) })}
        </Typography.Text>
      )}
      <Typography.Text type="secondary">
        {t('map.lastSeen')}: {item.last_seen_at ? formatDateTime(item.last_seen_at) : t('map.never')}
      </Typography.Text>
      <Space size={8} wrap>
        {link && (
          <Link to={link} data-testid="map-open">
            {t(`map.open.${item.kind}`)}
          </Link>
        )}
        {canEdit && (
          <Button size="small" type="link" danger onClick={onUnplace} data-testid="map-unplace" style={{ padding: 0 }}>
            {t('map.unplace')}
          </Button>
        )}
      </Space>
    </div>
  );
}
