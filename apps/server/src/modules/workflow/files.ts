import { randomBytes } from 'node:crypto';
import { CODES, WORKFLOW_FILE_PATTERN, WORKFLOW_LIMITS } from '@faceadmin/shared';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import type { FileStore, StoredFile } from '../../lib/files/store.ts';
import { sniffImage } from '../persons/photos.ts';

const NAME = new RegExp(WORKFLOW_FILE_PATTERN);
/** A picture is shown on the form and the timeline: 1600 px on the long side is plenty. */
const PICTURE_LONG_SIDE = 1600;

const fileError = (key: string, params: Record<string, string | number> = {}) => new AppError(CODES.RULE, 422, key, params, { field: 'file' });

/**
 * Pictures and attachments of applications, workflow/<company>/<name> in the file store with random names (what a picture
 * or attachment field's value lists). Pictures are decoded and re-encoded as JPEG (nothing but pixels is kept);
 * attachments are kept as sent and only ever served as downloads.
 */
export function workflowFiles(files: FileStore) {
  const keyOf = (companyId: number, name: string) => (NAME.test(name) ? `workflow/${companyId}/${name}` : undefined);
  return {
    /** The file as a stream, or undefined when there is none. */
    async open(companyId: number, name: string): Promise<StoredFile | undefined> {
      const key = keyOf(companyId, name);
      return key ? files.get(key) : undefined;
    },
    /** The names among these that are not this company's files. */
    async missing(companyId: number, names: string[]) {
      const out: string[] = [];
      for (const n of names) {
        const key = keyOf(companyId, n);
        if (!key || !(await files.head(key))) out.push(n);
      }
      return out;
    },
    async save(companyId: number, data: Buffer, filename: string, kind: 'picture' | 'attachment'): Promise<{ name: string; size: number; picture: boolean }> {
      if (data.length > WORKFLOW_LIMITS.fileMaxBytes) throw fileError('errors.fileTooLarge', { mb: WORKFLOW_LIMITS.fileMaxBytes / 1024 / 1024 });
      if (!data.length) throw fileError('errors.wfFileEmpty');
      let out = data;
      let ext: string;
      if (kind === 'picture') {
        if (!sniffImage(data)) throw fileError('errors.photoType');
        try {
          out = await sharp(data, { limitInputPixels: 40_000_000, failOn: 'error' })
            .rotate()
            .resize({ width: PICTURE_LONG_SIDE, height: PICTURE_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
            .flatten({ background: '#ffffff' })
            .jpeg({ quality: 80 })
            .toBuffer();
        } catch {
          throw fileError('errors.photoCorrupt');
        }
        ext = 'jpg';
      } else {
        ext = /\.([A-Za-z0-9]{1,8})$/.exec(filename)?.[1]?.toLowerCase() ?? 'bin';
      }
      const name = `${randomBytes(16).toString('hex')}.${ext}`;
      await files.put(keyOf(companyId, name)!, out);
      return { name, size: out.length, picture: kind === 'picture' };
    },
  };
}
export type WorkflowFiles = ReturnType<typeof workflowFiles>;
