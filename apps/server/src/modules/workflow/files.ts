import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CODES, WORKFLOW_FILE_PATTERN, WORKFLOW_LIMITS } from '@faceadmin/shared';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';
import { sniffImage } from '../persons/photos.ts';

const NAME = new RegExp(WORKFLOW_FILE_PATTERN);
/** A picture is shown on the form and the timeline: 1600 px on the long side is plenty. */
const PICTURE_LONG_SIDE = 1600;

const fileError = (key: string, params: Record<string, string | number> = {}) => new AppError(CODES.RULE, 422, key, params, { field: 'file' });

/**
 * Pictures and attachments of applications, under DATA_DIR/workflow/<company>/ with random names (what a picture
 * or attachment field's value lists). Pictures are decoded and re-encoded as JPEG (nothing but pixels is kept);
 * attachments are kept as sent and only ever served as downloads.
 */
export function workflowFiles(dataDir: string) {
  const dirOf = (companyId: number) => path.join(dataDir, 'workflow', String(companyId));
  const pathOf = (companyId: number, name: string) => {
    if (!NAME.test(name)) return undefined;
    const p = path.join(dirOf(companyId), name);
    return fs.existsSync(p) ? p : undefined;
  };
  return {
    pathOf,
    /** The names among these that are not this company's files. */
    missing: (companyId: number, names: string[]) => names.filter((n) => !pathOf(companyId, n)),
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
      fs.mkdirSync(dirOf(companyId), { recursive: true });
      fs.writeFileSync(path.join(dirOf(companyId), name), out);
      return { name, size: out.length, picture: kind === 'picture' };
    },
  };
}
export type WorkflowFiles = ReturnType<typeof workflowFiles>;
