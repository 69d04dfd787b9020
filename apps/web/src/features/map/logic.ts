import { SITE_LIMITS, TILE_URL_PATTERN, type Site } from '@faceadmin/shared';

/** How a site is drawn: its floor plan (pixels), a tile map (longitude/latitude), or nothing yet. */
export type MapMode = 'plan' | 'tiles' | 'none';
export const modeOf = (s: Pick<Site, 'tile_url' | 'image_url'>): MapMode => (s.tile_url ? 'tiles' : s.image_url ? 'plan' : 'none');

/**
 * A floor plan is drawn with Leaflet's CRS.Simple, one unit a pixel at zoom 0, latitude growing upwards: the
 * image spans [0, 0] to [height, width]. Placements are stored as pixels from the image's top-left corner
 * (what the big screen reads), so y flips.
 */
export const planToLatLng = (height: number, x: number, y: number): [number, number] => [height - y, x];
export const latLngToPlan = (height: number, lat: number, lng: number): { x: number; y: number } => ({ x: lng, y: height - lat });

/** A spot dropped or dragged: inside the plan (rounded to a tenth of a pixel), or undefined when it fell off it. */
export function planSpot(site: Pick<Site, 'image_width' | 'image_height'>, lat: number, lng: number): { x: number; y: number } | undefined {
  const p = latLngToPlan(site.image_height, lat, lng);
  if (p.x < 0 || p.y < 0 || p.x > site.image_width || p.y > site.image_height) return undefined;
  return { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 };
}

/** A spot on a tile map: longitude wrapped into ±180, latitude within Web Mercator's range. */
export function tileSpot(lat: number, lng: number): { x: number; y: number } | undefined {
  if (Math.abs(lat) > SITE_LIMITS.latMax) return undefined;
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return { x: Math.round(wrapped * 1e6) / 1e6, y: Math.round(lat * 1e6) / 1e6 };
}

/** What the tile-URL field accepts: '' or an http(s) template with {z}, {x} and {y} (as the server checks). */
export const isTileUrl = (u: string) => u === '' || (new RegExp(TILE_URL_PATTERN).test(u) && ['{z}', '{x}', '{y}'].every((p) => u.includes(p)));

/** How long a live alarm (a fever, a stranger) keeps a device's marker red unless someone opens it. */
export const ALARM_HOLD_MS = 5 * 60_000;
export const itemKey = (i: { kind: string; ref_id: number }) => `${i.kind}:${i.ref_id}`;

/** A rectangle on screen, in px. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
/** Where a marker's name is written: beside it on the right, on the left, or not at all (its tooltip and the list name it). */
export type LabelSide = 'right' | 'left' | 'hidden';

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const inside = (a: Box, frame: Box) => a.left >= frame.left && a.right <= frame.right && a.top >= frame.top && a.bottom <= frame.bottom;

/**
 * The side of each marker's name, in the markers' order (the first ones keep theirs): on the right of its dot when that
 * place is inside the map's frame and free of every dot and of the names already written, else on the left on the same
 * terms, else none. Names then never cover each other or another marker, nor run past the map's edge.
 */
export function labelSides(markers: readonly { dot: Box; width: number; height: number }[], frame: Box, gap = 4): LabelSide[] {
  const taken: Box[] = [];
  return markers.map(({ dot, width, height }, i) => {
    const top = dot.top + (dot.bottom - dot.top - height) / 2;
    const places: [LabelSide, Box][] = [
      ['right', { left: dot.right + gap, right: dot.right + gap + width, top, bottom: top + height }],
      ['left', { left: dot.left - gap - width, right: dot.left - gap, top, bottom: top + height }],
    ];
    for (const [side, box] of places) {
      const free = inside(box, frame) && !taken.some((t) => overlaps(box, t)) && !markers.some((m, j) => j !== i && overlaps(box, m.dot));
      if (free) {
        taken.push(box);
        return side;
      }
    }
    return 'hidden';
  });
}
