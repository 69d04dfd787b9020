import { Type, type Static } from 'typebox';
import { Id, IdBody, Nullable, StringEnum } from './common.ts';
import { binary, endpoint } from './endpoint.ts';

/**
 * Sites and the device map (spec §2 /map; issue #16): a site is a group of devices and breakers an administrator
 * defines, shown on the company's own floor plan (an uploaded image, pixel coordinates from its top-left corner)
 * or, when the administrator sets a tile URL, on a tile map (x = longitude, y = latitude). The big screen
 * (/spotconsoles) shows one site's devices.
 */
export const SITE_LIMITS = {
  nameMax: 40,
  sortMax: 9999,
  tileUrlMax: 500,
  imageMaxBytes: 10 * 1024 * 1024,
  /** A browser must still draw the plan: longer sides than this are refused. */
  imageMaxSide: 16_384,
  /** Web Mercator's latitude limit: a tile map has nothing beyond it. */
  latMax: 85.0511,
  lngMax: 180,
} as const;

/** What an upload may be (checked by content, never by name). */
export const SITE_IMAGE_TYPES = ['png', 'jpeg', 'webp'] as const;
export const PLACEMENT_KINDS = ['device', 'breaker'] as const;
export type PlacementKind = (typeof PLACEMENT_KINDS)[number];
/** A marker's colour: online green, offline grey, alarm red (a breaker with an active alarm). */
export const PLACEMENT_STATES = ['online', 'offline', 'alarm'] as const;
export type PlacementState = (typeof PLACEMENT_STATES)[number];

export const Site = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  sort: Type.Integer(),
  /** where the floor plan is read ('' when none was uploaded); changes with every upload */
  image_url: Type.String(),
  image_width: Type.Integer(),
  image_height: Type.Integer(),
  /** '' : the map is the floor plan; otherwise a tile map with this URL template ({z}/{x}/{y}) */
  tile_url: Type.String(),
  devices: Type.Integer(),
  breakers: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type Site = Static<typeof Site>;

/** A device or breaker of the company, with what its marker shows. */
export const MapItem = Type.Object({
  kind: StringEnum(PLACEMENT_KINDS),
  ref_id: Type.Integer(),
  name: Type.String(),
  online: Type.Boolean(),
  state: StringEnum(PLACEMENT_STATES),
  last_seen_at: Nullable(Type.String()),
});
export type MapItem = Static<typeof MapItem>;
export const Placement = Type.Object({ ...MapItem.properties, x: Type.Number(), y: Type.Number() });
export type Placement = Static<typeof Placement>;
export const SiteDetail = Type.Object({
  ...Site.properties,
  placements: Type.Array(Placement),
  /** the company's devices and breakers not on this site (what may be dragged onto it) */
  unplaced: Type.Array(MapItem),
});
export type SiteDetail = Static<typeof SiteDetail>;

const name = Type.String({ minLength: 1, maxLength: SITE_LIMITS.nameMax });
const sort = Type.Integer({ minimum: 0, maximum: SITE_LIMITS.sortMax });
/** '' or an http(s) URL template in printable ASCII (percent-encode the rest); the server also wants {z}, {x} and {y} in it. */
export const TILE_URL_PATTERN = '^(https?://[\\x21-\\x7e]+)?$';
const tileUrl = Type.String({ maxLength: SITE_LIMITS.tileUrlMax, pattern: TILE_URL_PATTERN });
export const SiteCreate = Type.Object({ name, sort: Type.Optional(sort), tile_url: Type.Optional(tileUrl) });
export type SiteCreate = Static<typeof SiteCreate>;
/** Switching between floor plan and tile map (tile_url set or cleared) takes the placements off: their coordinates mean something else. */
export const SiteUpdate = Type.Object({ id: Id, name, sort: Type.Optional(sort), tile_url: Type.Optional(tileUrl) });
export type SiteUpdate = Static<typeof SiteUpdate>;
/** Pixels from the image's top-left corner, or longitude (x) and latitude (y) on a tile map. */
const coordinate = Type.Number({ minimum: -1_000_000, maximum: 1_000_000 });
export const PlaceBody = Type.Object({ site_id: Id, kind: Type.Enum([...PLACEMENT_KINDS]), ref_id: Id, x: coordinate, y: coordinate });
export type PlaceBody = Static<typeof PlaceBody>;
export const UnplaceBody = Type.Object({ site_id: Id, kind: Type.Enum([...PLACEMENT_KINDS]), ref_id: Id });
export type UnplaceBody = Static<typeof UnplaceBody>;

export const sitesApi = {
  list: endpoint({ method: 'GET', path: '/site/list', response: Type.Array(Site) }),
  info: endpoint({ method: 'GET', path: '/site/info', query: IdBody, response: SiteDetail }),
  create: endpoint({ method: 'POST', path: '/site/create', body: SiteCreate, response: Site }),
  update: endpoint({ method: 'POST', path: '/site/update', body: SiteUpdate, response: Site }),
  /** Removes the site, its placements and its floor plan (the devices and breakers stay). */
  delete: endpoint({ method: 'POST', path: '/site/delete', body: IdBody, response: Type.Null() }),
  /** Form field site_id, then the file (PNG, JPEG or WebP, at most 10 MB); replaces the plan, placements keep their relative spot. */
  image: endpoint({ method: 'POST', path: '/site/image', multipart: true, response: Site }),
  /** The floor plan (signed-in console, also by cookie for an <img>). */
  imageFile: endpoint({ method: 'GET', path: '/site/image/:id', params: IdBody, response: binary('image/*') }),
  place: endpoint({ method: 'POST', path: '/site/place', body: PlaceBody, response: Placement }),
  unplace: endpoint({ method: 'POST', path: '/site/unplace', body: UnplaceBody, response: Type.Null() }),
};
