import { DEFAULT_SIZE, SIZES, THEME_COLORS, type Size } from '@faceadmin/shared';
import { createStore, readLocal, useStore, writeLocal } from './store.ts';

/** Layout preferences of the settings drawer and navbar, persisted per browser (spec §2 shell behaviour). */
export interface Settings {
  size: Size;
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  /** Desktop sidebar open state; spec §9: open by default. */
  sidebarOpened: boolean;
}

const KEY = 'faceadmin.settings';
const DEFAULTS: Settings = {
  size: DEFAULT_SIZE,
  themeColor: THEME_COLORS[0],
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  sidebarOpened: true,
};

function load(): Settings {
  const saved = readLocal<Partial<Settings>>(KEY, {});
  const merged = { ...DEFAULTS, ...saved };
  if (!SIZES.includes(merged.size)) merged.size = DEFAULT_SIZE;
  return merged;
}

export const settingsStore = createStore<Settings>(load(), (v) => writeLocal(KEY, v));

export function updateSettings(patch: Partial<Settings>): void {
  settingsStore.set((prev) => ({ ...prev, ...patch }));
}

export const useSettings = (): Settings => useStore(settingsStore);
