import type { FastifyRequest } from 'fastify';
import { badInput, invalid } from './errors.ts';

/** An uploaded file read whole, with the form's other fields. */
export interface Upload {
  data: Buffer;
  /** the name the browser gave it */
  filename: string;
  fields: Record<string, string>;
}

/**
 * One file of a multipart request (form field "file", other fields before it), read into memory and refused beyond
 * `cap` bytes (`errors.fileTooLarge` naming the megabytes). `checkFields` looks at the other fields first (its
 * error wins over a missing or too large file). Not a multipart request, or no file: `reasons.required` on `file`.
 */
export async function uploadOf(req: FastifyRequest, cap: number, checkFields?: (fields: Record<string, string>) => void): Promise<Upload> {
  if (!req.isMultipart()) throw invalid('file', 'reasons.required');
  const fields: Record<string, string> = {};
  let data: Buffer | undefined;
  let filename = '';
  let truncated = false;
  const tooLarge = () => badInput('errors.fileTooLarge', 'file', { mb: Math.round(cap / 1024 / 1024) });
  try {
    for await (const part of req.parts({ limits: { fileSize: cap, files: 1 } })) {
      if (part.type === 'file') {
        data = await part.toBuffer();
        filename = part.filename;
        truncated = part.file.truncated;
      } else fields[part.fieldname] = String(part.value);
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw e;
  }
  checkFields?.(fields);
  if (!data) throw invalid('file', 'reasons.required');
  if (truncated) throw tooLarge();
  return { data, filename, fields };
}
