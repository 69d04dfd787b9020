import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, WORKFLOW_LIMITS, type WorkflowFile } from '@faceadmin/shared';
import { notFound } from '../../lib/errors.ts';
import { uploadOf } from '../../lib/multipart.ts';
import type { WorkflowFiles } from './files.ts';
import { sendStored } from '../../lib/files/reply.ts';

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
