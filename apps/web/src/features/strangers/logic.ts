import type { LivePunch, Stranger, StrangerExportBody } from '@faceadmin/shared';
import type { PagedQuery } from '../../ui/paging.ts';

export type StrangerFilters = StrangerExportBody;

/** Only the filters that are set (the cache key and the request stay small). */
export const strangerParams = (f: StrangerFilters): StrangerFilters => ({
  ...(f.device_id ? { device_id: f.device_id } : {}),
  ...(f.from ? { from: f.from } : {}),
  ...(f.to ? { to: f.to } : {}),
});

/**
 * A live punch event of a stranger in the list's shape, shown at once until the refetch brings the server's own
 * (a refused person is recognised by the name the event carries; the server decides for good).
 */
export const fromLive = (p: LivePunch): Stranger => ({
  id: p.id,
  device_id: p.device_id,
  device: p.device,
  day: p.day,
  time: p.time,
  utc: p.utc,
  kind: p.refused ? 'refused' : 'unknown',
  person_id: p.refused ? p.person_id : null,
  name: p.name,
  number: p.number === '0' ? '' : p.number,
  temperature: p.temperature,
  pic_url: p.pic_url,
});

/** Whether a live stranger belongs on the page the filters show: the first page, its device, its days. */
export const fits = (q: PagedQuery<StrangerFilters>, s: Stranger): boolean =>
  q.page === 1 && (!q.device_id || q.device_id === s.device_id) && (!q.from || s.day >= q.from) && (!q.to || s.day <= q.to);

/** The page with a live stranger first (once; the page keeps its size), or as it was. */
export function withArrival<P extends { items: Stranger[]; total: number; pageSize: number }>(page: P | undefined, s: Stranger): P | undefined {
  if (!page || page.items.some((x) => x.id === s.id)) return page;
  return { ...page, items: [s, ...page.items].slice(0, page.pageSize), total: page.total + 1 };
}

/** The page with a capture that arrived after its record, or as it was. */
export function withPhoto<P extends { items: Stranger[] }>(page: P | undefined, id: number, picUrl: string): P | undefined {
  if (!page?.items.some((x) => x.id === id && !x.pic_url)) return page;
  return { ...page, items: page.items.map((x) => (x.id === id ? { ...x, pic_url: picUrl } : x)) };
}
