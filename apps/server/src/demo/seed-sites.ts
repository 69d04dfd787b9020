import sharp from 'sharp';
import type { App } from '../app.ts';
import type { Tenant } from '../plugins/auth.ts';

/** The demo's floor plan: a ground floor with a lobby, offices, a canteen and the dormitory wing (drawn, then rasterized). */
function floorPlanSvg(): string {
  // each room's name near its top, where the markers (at the doors, in the rooms' middles) leave it readable
  const room = (x: number, y: number, w: number, h: number, label: string, fill: string) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" stroke="#5b6b7f" stroke-width="4"/>` +
    `<text x="${x + w / 2}" y="${y + 50}" font-family="sans-serif" font-size="30" fill="#34495e" text-anchor="middle" dominant-baseline="middle">${label}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">
  <rect width="1600" height="1000" fill="#f4f6f9"/>
  ${room(60, 60, 520, 380, 'Offices 办公区', '#e8f1fb')}
  ${room(600, 60, 420, 380, 'Meeting 会议室', '#eef7ee')}
  ${room(1040, 60, 500, 880, 'Dormitory 宿舍楼', '#fbf1e6')}
  ${room(60, 560, 520, 380, 'Canteen 食堂', '#f7eef7')}
  ${room(600, 560, 420, 380, 'Plant room 配电间', '#f0f0f0')}
  <rect x="60" y="460" width="980" height="80" fill="#ffffff" stroke="#5b6b7f" stroke-width="2" stroke-dasharray="12 8"/>
  <text x="550" y="500" font-family="sans-serif" font-size="26" fill="#7f8c8d" text-anchor="middle" dominant-baseline="middle">Lobby 大堂</text>
  <rect x="0" y="470" width="60" height="60" fill="#2ecc71"/>
</svg>`;
}

/**
 * The demo company's device map (spec §2 /map): one site with the floor plan above, its terminals at the doors and
 * its breakers in the plant room and the dormitory, so /map and /spotconsoles are alive from the first start.
 * Idempotent: a company that has a site already is left alone.
 */
export async function seedDemoSite(app: App, tenant: Tenant): Promise<void> {
  const db = app.database.db;
  if (await db.selectFrom('sites').select('id').where('company_id', '=', tenant.companyId).executeTakeFirst()) return;
  const sites = app.modules.sites.sites;
  const site = await sites.create(tenant, { name: '总部 Headquarters', sort: 1 });
  await sites.image(tenant, site.id, await sharp(Buffer.from(floorPlanSvg())).png().toBuffer());
  const devices = await db.selectFrom('devices').select(['id', 'direction']).where('company_id', '=', tenant.companyId).orderBy('id').execute();
  const spots = [
    [90, 500],
    [1000, 500],
    [1080, 300],
  ] as const;
  for (const [i, d] of devices.slice(0, spots.length).entries())
    await sites.place(tenant, { site_id: site.id, kind: 'device', ref_id: d.id, x: spots[i]![0], y: spots[i]![1] });
  const breakers = await db.selectFrom('breakers').select('id').where('company_id', '=', tenant.companyId).orderBy('sort').execute();
  const breakerSpots = [
    [700, 700],
    [900, 700],
    [1300, 800],
  ] as const;
  for (const [i, b] of breakers.slice(0, breakerSpots.length).entries())
    await sites.place(tenant, { site_id: site.id, kind: 'breaker', ref_id: b.id, x: breakerSpots[i]![0], y: breakerSpots[i]![1] });
}
