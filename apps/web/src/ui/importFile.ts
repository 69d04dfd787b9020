import { LIMITS } from '@faceadmin/shared';

export type ImportFileProblem = 'type' | 'size' | null;

/** The import limit in MB, for the hints and the refusal (spec §5: at most 2 MB). */
export const IMPORT_MAX_MB = Math.round(LIMITS.importMaxBytes / 1024 / 1024);

/** Client-side check of the import file (spec §5/§9: .xlsx only, at most 2 MB); the server checks again. */
export function importFileProblem(file: { name: string; size: number }, maxBytes: number = LIMITS.importMaxBytes): ImportFileProblem {
  if (!/\.xlsx$/i.test(file.name)) return 'type';
  return file.size > maxBytes ? 'size' : null;
}
