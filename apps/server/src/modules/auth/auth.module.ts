import { clock } from '../../lib/time.ts';
import { defineModule, type Core } from '../../module.ts';
import authRoutes from './auth.routes.ts';
import { authService } from './auth.service.ts';
import { captchaService } from './captcha.service.ts';
import { sessionLookup } from './session-lookup.ts';
import { sessionsRepository } from './sessions.repository.ts';
import { sessionsService } from './sessions.service.ts';
import { createSmsSender, type SmsSender } from './sms.service.ts';

/** Sessions stay readable a week past expiry, so an old token is told "expired" rather than "illegal". */
export const SESSION_KEEP_MS = 7 * 86400_000;

/** Sign-in, sessions, registration and password changes; provides the session lookup the auth plugin uses. */
export function authModule(core: Core, opts: { captchaText?: (() => string) | undefined; sms?: SmsSender | null | undefined } = {}) {
  const { database, config } = core;
  const sessions = sessionsService(config.sessionTtl);
  const captcha = captchaService(opts.captchaText);
  // LAN mode needs no SMS (no internet): sign-in is by password, registration and code-based resets are off.
  const sms = config.runMode === 'lan' ? null : opts.sms === undefined ? createSmsSender(config, core.log) : opts.sms;
  const auth = authService({ database, config, sessions, captcha, sms });
  return defineModule({
    name: 'auth',
    sessions,
    captcha,
    sms,
    auth,
    lookup: sessionLookup(database, sessions),
    routes: (app) => authRoutes(app, { ...core, auth, captcha, sms }),
    jobs: [
      {
        name: 'sessions.purge',
        every: 3600_000,
        exclusive: true,
        run: () => sessionsRepository.deleteExpired(database.db, new Date(clock.now() - SESSION_KEEP_MS).toISOString()),
      },
      {
        // Sign-in attempts past the throttle's hour, and browsers unused for half a year.
        name: 'signins.purge',
        every: 3600_000,
        exclusive: true,
        run: () => auth.purgeSignIns(),
      },
    ],
    ready: () => auth.bootstrapAdmin(),
  });
}
