import { createStore, useStore } from './store.ts';

/** Visited pages shown as tabs (spec §2 "Tag tabs"). The pinned dashboard tab is added by the view itself. */
export interface VisitedTag {
  path: string;
  titleKey: string;
}

export const tagsStore = createStore<VisitedTag[]>([]);
export const useTags = (): VisitedTag[] => useStore(tagsStore);

export function addTag(tag: VisitedTag): void {
  tagsStore.set((prev) => (prev.some((t) => t.path === tag.path) ? prev : [...prev, tag]));
}
