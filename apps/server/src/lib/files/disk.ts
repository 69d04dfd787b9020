import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { asStream, checkKey, meter, typeOfKey, type FileStore, type ListedFile } from './store.ts';

/** Files under a folder (DATA_DIR), as they always were: written to a temp file, then renamed into place. */
export function diskFileStore(root: string): FileStore {
  const fileOf = (key: string) => path.join(root, ...checkKey(key).split('/'));
  async function stat(key: string) {
    const s = await fs.promises.stat(fileOf(key)).catch(() => undefined);
    return s?.isFile() ? s : undefined;
  }
  async function* walk(dir: string, rel: string): AsyncGenerator<ListedFile> {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) yield* walk(path.join(dir, e.name), key);
      else if (e.isFile() && !e.name.endsWith('.tmp')) {
        const s = await fs.promises.stat(path.join(dir, e.name)).catch(() => undefined);
        if (s) yield { key, size: s.size, modifiedAt: s.mtimeMs };
      }
    }
  }
  return {
    kind: 'disk',
    async put(key, data, opts = {}) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      const m = meter(opts.maxBytes);
      try {
        await pipeline(asStream(data), m.stream, fs.createWriteStream(tmp));
        await fs.promises.rename(tmp, file);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true });
        throw e;
      }
      return m.result();
    },
    async get(key) {
      const s = await stat(key);
      if (!s) return undefined;
      return { size: s.size, contentType: typeOfKey(key), modifiedAt: s.mtimeMs, stream: fs.createReadStream(fileOf(key)) };
    },
    async head(key) {
      const s = await stat(key);
      return s ? { size: s.size, contentType: typeOfKey(key), modifiedAt: s.mtimeMs } : undefined;
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async *list(prefix) {
      // the deepest folder the prefix names, then keys filtered by the rest
      const cut = prefix.lastIndexOf('/');
      const folder = cut < 0 ? '' : prefix.slice(0, cut);
      if (folder && !folder.split('/').every((s) => checkKey(s))) return;
      for await (const f of walk(folder ? path.join(root, ...folder.split('/')) : root, folder)) if (f.key.startsWith(prefix)) yield f;
    },
  };
}

/** Half-written temp files older than `before` (ms) left by a crash, under `folder` of a disk store's root. */
export async function sweepTempFiles(root: string, folder: string, before: number): Promise<number> {
  let removed = 0;
  async function walk(dir: string) {
    for (const e of await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.tmp')) {
        const s = await fs.promises.stat(p).catch(() => undefined);
        if (s && s.mtimeMs < before) {
          await fs.promises.rm(p, { force: true });
          removed++;
        }
      }
    }
  }
  await walk(path.join(root, folder));
  return removed;
}
