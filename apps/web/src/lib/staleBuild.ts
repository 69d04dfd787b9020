/**
 * A console left open across an upgrade asks for a page's chunk by the old build's name, which the server no longer
 * has (the names carry a hash of the content). The page would fail with "something went wrong"; instead the console
 * reloads once, gets the new build's index.html (never cached) and opens the page from it. A chunk that still fails
 * right after such a reload (the server or the network is at fault, not the build) shows the failure as before: the
 * last reload's address and time are kept in the tab's sessionStorage, and the same address is not reloaded again
 * within RELOAD_WINDOW_MS. A page still there STILL_HERE_MS after asking (the reload was cancelled: "leave this
 * page?") shows the failure too.
 */
const KEY = 'faceadmin.staleBuildReload';
export const RELOAD_WINDOW_MS = 60_000;
export const STILL_HERE_MS = 10_000;

/** Whether an error is a script or stylesheet of the build that did not load (Chromium, Firefox, Safari, Vite's preload). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i.test(
    message,
  );
}

interface Env {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now: number;
  path: string;
  /** this page load (performance.timeOrigin): the same page asking twice reloads once */
  load: number;
}

/**
 * Reloads the page unless it was reloaded for the same reason at the same address within RELOAD_WINDOW_MS. Answers
 * whether it did (the caller then shows the page loading rather than the failure).
 */
export function reloadForNewBuild(given?: Env): boolean {
  let env: Env;
  try {
    env = given ?? browserEnv();
  } catch {
    return false; // site data blocked: sessionStorage throws, and without it a reload could repeat
  }
  let last: { path?: string; at?: number; load?: number } = {};
  try {
    last = JSON.parse(env.storage.getItem(KEY) ?? '{}') as typeof last;
  } catch {
    // unreadable: as if none
  }
  // asked again by the page that is reloading (React runs effects twice in development): still reloading
  if (last.load === env.load) return true;
  if (last.path === env.path && typeof last.at === 'number' && env.now - last.at < RELOAD_WINDOW_MS) return false;
  try {
    env.storage.setItem(KEY, JSON.stringify({ path: env.path, at: env.now, load: env.load }));
  } catch {
    // without storage a reload could repeat: show the failure instead
    return false;
  }
  env.reload();
  return true;
}

function browserEnv(): Env {
  return { storage: sessionStorage, reload: () => location.reload(), now: Date.now(), path: location.pathname, load: performance.timeOrigin };
}
