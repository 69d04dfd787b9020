import { createStore, readLocal, useStore, writeLocal } from './store.ts';

/**
 * Visited pages shown as tabs (spec §2 "Tag tabs"). The pinned dashboard tab is added by the view itself; which
 * tabs this session may still open is the route table's answer (app/layout/reachableTags.ts).
 */
export interface VisitedTag {
  path: string;
  titleKey: string;
}

const KEY = 'faceadmin.tags';
const MAX_TAGS = 30;

/** What was saved, if it still has the shape of a tag list (a bad or foreign value gives no tabs, never an error). */
export function restoreTags(saved: unknown): VisitedTag[] {
  if (!Array.isArray(saved)) return [];
  const out: VisitedTag[] = [];
  for (const t of saved as unknown[]) {
    if (!t || typeof t !== 'object') continue;
    const { path, titleKey } = t as Record<string, unknown>;
    if (typeof path !== 'string' || !path.startsWith('/') || typeof titleKey !== 'string') continue;
    if (!out.some((o) => o.path === path)) out.push({ path, titleKey });
  }
  return out.slice(-MAX_TAGS);
}

// Open tabs persist across reloads like the sidebar state (settings.ts): per browser, in localStorage.
export const tagsStore = createStore<VisitedTag[]>(restoreTags(readLocal<unknown>(KEY, [])), (v) => writeLocal(KEY, v));
export const useTags = (): VisitedTag[] => useStore(tagsStore);

export function addTag(tag: VisitedTag): void {
  tagsStore.set((prev) => (prev.some((t) => t.path === tag.path) ? prev : [...prev, tag].slice(-MAX_TAGS)));
}
