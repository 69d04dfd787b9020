import type { FastifyReply } from 'fastify';
import type { StoredFile } from './store.ts';

/** Streams a stored file as the answer, with its length (the headers the route set stay). */
export function sendStored(reply: FastifyReply, file: StoredFile) {
  return reply.header('content-length', file.size).send(file.stream);
}
