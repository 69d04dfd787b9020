import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's per-request log lines ('incoming request', 'request completed'), with two changes:
 * - requests that `routine` names (terminals polling and uploading, every few seconds each) are logged
 *   at debug: at info the log keeps what the gateway reports of them (a terminal connected, punches
 *   received, command results), and their failures;
 * - 'request completed' names the method and URL, so one line says what happened.
 */
export class RequestLog extends LogController {
  readonly #routine: (url: string) => boolean;

  constructor(routine: (url: string) => boolean) {
    super();
    this.#routine = routine;
  }

  override incomingRequest(request: FastifyRequest, _reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const level = this.#routine(request.url) ? 'debug' : 'info';
    request.log[level]({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = { method: request.method, url: request.url, res: reply, responseTime: reply.elapsedTime };
    if (error) {
      reply.log.error({ ...fields, err: error }, 'request errored');
      return;
    }
    // A refused terminal (403: not registered) is already reported, once per ten minutes, by the gateway's port.
    const quiet = this.#routine(request.url) && (reply.statusCode < 400 || reply.statusCode === 403);
    reply.log[quiet ? 'debug' : 'info'](fields, 'request completed');
  }
}
