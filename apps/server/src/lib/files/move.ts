import type { FileStore } from './store.ts';

/** The folders of DATA_DIR that are stored files (the rest is the SQLite database, keys and backups). */
export const FILE_FOLDERS = ['faces', 'punches', 'sites', 'workflow', 'firmware', 'device-logs', 'terminal-faces'] as const;

export interface MoveProgress {
  /** files looked at so far */
  seen: number;
  copied: number;
  /** already in the target with the same size */
  skipped: number;
  failed: number;
  /** bytes copied */
  bytes: number;
  /** the file just done */
  key: string;
}

/**
 * Copies every stored file of `from` into `to`, streamed one at a time. A file already there with the same size is
 * skipped, so a run cut short is resumed by running it again, and a second run copies nothing. Nothing is
 * deleted from `from`. A file that fails is reported and the rest go on.
 */
export async function moveFiles(
  from: FileStore,
  to: FileStore,
  o: { folders?: readonly string[]; onProgress?: (p: MoveProgress) => void; onError?: (key: string, e: unknown) => void } = {},
): Promise<MoveProgress> {
  const p: MoveProgress = { seen: 0, copied: 0, skipped: 0, failed: 0, bytes: 0, key: '' };
  for (const folder of o.folders ?? FILE_FOLDERS) {
    for await (const f of from.list(`${folder}/`)) {
      p.seen++;
      p.key = f.key;
      try {
        const there = await to.head(f.key);
        if (there && there.size === f.size) p.skipped++;
        else {
          const file = await from.get(f.key);
          if (!file) continue; // deleted meanwhile
          const r = await to.put(f.key, file.stream, { contentType: file.contentType });
          p.copied++;
          p.bytes += r.size;
        }
      } catch (e) {
        p.failed++;
        o.onError?.(f.key, e);
      }
      o.onProgress?.(p);
    }
  }
  return p;
}
