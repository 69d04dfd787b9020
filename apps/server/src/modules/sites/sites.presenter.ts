import { API_PREFIX, pathOf, sitesApi, type MapItem, type Placement, type PlacementState, type Site } from '@faceadmin/shared';
import type { ItemRow, PlacementRow, SiteRow } from './sites.repository.ts';

/** Where the floor plan is read; the file name's head in the query makes a new upload a new address (no stale cache). */
const imageUrl = (row: SiteRow) => (row.image ? `${API_PREFIX}${pathOf(sitesApi.imageFile, { id: row.id })}?v=${row.image.slice(0, 8)}` : '');

/** Presenter (habit 6): the stored file name stays on the server; the console gets the address. */
export function presentSite(row: SiteRow, counts: { devices: number; breakers: number }): Site {
  return {
    id: row.id,
    name: row.name,
    sort: row.sort,
    image_url: imageUrl(row),
    image_width: row.image_width,
    image_height: row.image_height,
    tile_url: row.tile_url,
    devices: counts.devices,
    breakers: counts.breakers,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const stateOf = (r: ItemRow): PlacementState => (r.active_alarms > 0 ? 'alarm' : r.online ? 'online' : 'offline');

export const presentItem = (r: ItemRow): MapItem => ({
  kind: r.kind,
  ref_id: r.ref_id,
  name: r.name,
  online: Boolean(Number(r.online)),
  state: stateOf(r),
  last_seen_at: r.last_seen_at,
});

export const presentPlacement = (r: PlacementRow): Placement => ({ ...presentItem(r), x: r.x, y: r.y });
