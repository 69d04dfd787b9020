import { SITE_LIMITS, type PlaceBody, type Placement, type SiteCreate, type SiteDetail, type SiteUpdate, type UnplaceBody } from '@faceadmin/shared';
import type { Database } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { checkPlan, type PlanStore } from './images.ts';
import { sitesRepository, type SiteRow } from './sites.repository.ts';
import { presentItem, presentPlacement, presentSite } from './sites.presenter.ts';

/** A tile URL template must name the tile: {z}, {x} and {y} (Leaflet's placeholders). */
function checkTileUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const u = url.trim();
  if (u && !['{z}', '{x}', '{y}'].every((p) => u.includes(p))) throw invalid('tile_url', 'reasons.tileUrl');
  return u;
}

const isTileMap = (s: Pick<SiteRow, 'tile_url'>) => s.tile_url !== '';

/**
 * Sites and the device map (issue #16 /map). A placement's coordinates are pixels from the floor plan's top-left
 * corner, or longitude/latitude when the site is a tile map; switching a site between the two takes its
 * placements off (they would land somewhere meaningless), a new floor plan moves them with its size.
 */
export function sitesService(deps: { database: Database; plans: PlanStore }) {
  const { db } = deps.database;
  const { plans } = deps;

  async function load(tenant: Tenant, id: number): Promise<SiteRow> {
    const s = await sitesRepository.get(db, tenant.companyId, id);
    if (!s) throw notFound();
    return s;
  }
  async function present(tenant: Tenant, id: number) {
    const row = (await sitesRepository.list(db, tenant.companyId)).find((s) => s.id === id);
    if (!row) throw notFound();
    return presentSite(row, { devices: Number(row.devices), breakers: Number(row.breakers) });
  }

  return {
    async list(tenant: Tenant) {
      const rows = await sitesRepository.list(db, tenant.companyId);
      return rows.map((r) => presentSite(r, { devices: Number(r.devices), breakers: Number(r.breakers) }));
    },

    async info(tenant: Tenant, id: number): Promise<SiteDetail> {
      const site = await present(tenant, id);
      const [placements, unplaced] = await Promise.all([
        sitesRepository.placements(db, tenant.companyId, id),
        sitesRepository.unplaced(db, tenant.companyId, id),
      ]);
      return { ...site, placements: placements.map(presentPlacement), unplaced: unplaced.map(presentItem) };
    },

    async create(tenant: Tenant, input: SiteCreate) {
      const tileUrl = checkTileUrl(input.tile_url) ?? '';
      const now = nowIso();
      const id = await transaction(db, async (trx) => {
        const id = await sitesRepository.insert(trx, tenant.companyId, {
          name: input.name.trim(),
          sort: input.sort ?? 0,
          image: '',
          image_width: 0,
          image_height: 0,
          tile_url: tileUrl,
          created_at: now,
          updated_at: now,
        });
        await audit(trx, tenant, 'device', 'device.siteCreate', { id, name: input.name.trim() });
        return id;
      });
      return present(tenant, id);
    },

    async update(tenant: Tenant, input: SiteUpdate) {
      const tileUrl = checkTileUrl(input.tile_url);
      await transaction(db, async (trx) => {
        const s = await sitesRepository.get(trx, tenant.companyId, input.id);
        if (!s) throw notFound();
        const patch = { name: input.name.trim(), sort: input.sort ?? s.sort, tile_url: tileUrl ?? s.tile_url, updated_at: nowIso() };
        await sitesRepository.update(trx, tenant.companyId, s.id, patch);
        // floor plan ↔ tile map: the coordinates would mean something else
        if (isTileMap(s) !== isTileMap(patch)) await sitesRepository.clear(trx, tenant.companyId, s.id);
        await audit(trx, tenant, 'device', 'device.siteUpdate', { id: s.id, name: patch.name });
      });
      return present(tenant, input.id);
    },

    async delete(tenant: Tenant, id: number) {
      const old = await transaction(db, async (trx) => {
        const s = await sitesRepository.get(trx, tenant.companyId, id);
        if (!s) throw notFound();
        await sitesRepository.delete(trx, tenant.companyId, id);
        await audit(trx, tenant, 'device', 'device.siteDelete', { id, name: s.name });
        return s.image;
      });
      // Only once the row is gone: a failed delete keeps its plan.
      if (old) await plans.remove(tenant.companyId, old).catch(() => undefined);
    },

    /** Stores a new floor plan; the old file goes once the change is committed, the new one when it is not. */
    async image(tenant: Tenant, siteId: number, data: Buffer) {
      await load(tenant, siteId);
      const plan = await checkPlan(data);
      const name = await plans.save(tenant.companyId, data, plan.type);
      let old = '';
      try {
        old = await transaction(db, async (trx) => {
          const s = await sitesRepository.get(trx, tenant.companyId, siteId);
          if (!s) throw notFound();
          await sitesRepository.update(trx, tenant.companyId, s.id, { image: name, image_width: plan.width, image_height: plan.height, updated_at: nowIso() });
          // The same plan drawn at another size: every placement keeps its spot on it.
          if (!isTileMap(s) && s.image_width > 0 && s.image_height > 0 && (s.image_width !== plan.width || s.image_height !== plan.height))
            await sitesRepository.scale(trx, tenant.companyId, s.id, plan.width / s.image_width, plan.height / s.image_height);
          await audit(trx, tenant, 'device', 'device.sitePlan', { id: s.id, name: s.name, width: plan.width, height: plan.height });
          return s.image;
        });
      } catch (err) {
        await plans.remove(tenant.companyId, name);
        throw err;
      }
      if (old) await plans.remove(tenant.companyId, old).catch(() => undefined);
      return present(tenant, siteId);
    },

    async imageFile(tenant: Tenant, id: number) {
      const s = await load(tenant, id);
      const file = s.image ? await plans.fileOf(tenant.companyId, s.image) : undefined;
      if (!file) throw notFound();
      return file;
    },

    /** Places or moves a device or breaker of this company on the site, within its plan. */
    async place(tenant: Tenant, input: PlaceBody): Promise<Placement> {
      const s = await load(tenant, input.site_id);
      const item = await sitesRepository.item(db, tenant.companyId, input.kind, input.ref_id);
      if (!item) throw notFound();
      if (isTileMap(s)) {
        if (Math.abs(input.x) > SITE_LIMITS.lngMax) throw invalid('x', 'reasons.outsideRange', { min: -SITE_LIMITS.lngMax, max: SITE_LIMITS.lngMax });
        if (Math.abs(input.y) > SITE_LIMITS.latMax) throw invalid('y', 'reasons.outsideRange', { min: -SITE_LIMITS.latMax, max: SITE_LIMITS.latMax });
      } else {
        if (!s.image) throw invalid('site_id', 'reasons.siteNoPlan');
        if (input.x < 0 || input.x > s.image_width) throw invalid('x', 'reasons.outsideRange', { min: 0, max: s.image_width });
        if (input.y < 0 || input.y > s.image_height) throw invalid('y', 'reasons.outsideRange', { min: 0, max: s.image_height });
      }
      try {
        await sitesRepository.place(db, tenant.companyId, s.id, input.kind, input.ref_id, input.x, input.y);
      } catch (err) {
        // the site was deleted meanwhile (its foreign key refused the row)
        if (!(await sitesRepository.get(db, tenant.companyId, s.id))) throw notFound();
        throw err;
      }
      return presentPlacement({ ...item, x: input.x, y: input.y });
    },

    async unplace(tenant: Tenant, input: UnplaceBody) {
      const s = await load(tenant, input.site_id);
      if (!(await sitesRepository.unplace(db, tenant.companyId, s.id, input.kind, input.ref_id))) throw notFound();
    },
  };
}
export type SitesService = ReturnType<typeof sitesService>;
