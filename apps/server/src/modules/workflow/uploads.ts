import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, WORKFLOW_LIMITS, type WorkflowFile } from '@faceadmin/shared';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import type { WorkflowFiles } from './files.ts';
import { sendStored } from '../../lib/files/reply.ts';

/** One file of a multipart request (form field "file", other fields before it), refused beyond `cap` bytes. */
export async function uploadOf(req: FastifyRequest, cap: number): Promise<{ data: Buffer; filename: string; fields: Record<string, string> }> {
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
  if (!data) throw invalid('file', 'reasons.required');
  if (truncated) throw tooLarge();
  return { data, filename, fields };
}

/** A picture or attachment upload of a form, answered with its name and where it is read (`base`: the file route). */
export async function saveUpload(req: FastifyRequest, files: WorkflowFiles, companyId: number, base: string): Promise<WorkflowFile> {
  const { data, filename, fields } = await uploadOf(req, WORKFLOW_LIMITS.fileMaxBytes);
  const kind = fields.kind === 'attachment' ? 'attachment' : 'picture';
  const saved = await files.save(companyId, data, filename, kind);
  return { ...saved, url: `${API_PREFIX}${base}/${saved.name}` };
}

/** Serves a stored file: pictures inline as JPEG, attachments only as downloads (never rendered by the browser). */
export async function sendFile(reply: FastifyReply, files: WorkflowFiles, companyId: number, name: string) {
  const file = await files.open(companyId, name);
  if (!file) throw notFound();
  const picture = name.endsWith('.jpg');
  reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, max-age=3600');
  if (picture) return sendStored(reply.type('image/jpeg'), file);
  return sendStored(reply.type('application/octet-stream').header('content-disposition', `attachment; filename="${name}"`), file);
}
