import { defineModule, type Core } from '../../module.ts';
import messagesRoutes from './messages.routes.ts';

/** Notification messages (spec §2 /message/message); other modules write them with `notify`. */
export function messagesModule(core: Core) {
  return defineModule({ name: 'messages', routes: (app) => messagesRoutes(app, core) });
}
