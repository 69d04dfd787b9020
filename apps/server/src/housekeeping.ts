import type { Database } from './db/database.ts';
import { clock } from './lib/time.ts';
import { sessionsRepository } from './modules/auth/sessions.repository.ts';
import { personsRepository } from './modules/persons/persons.repository.ts';
import type { PhotoStore } from './modules/persons/photos.ts';

/** Sessions stay readable a week past expiry, so an old token is told "expired" rather than "illegal". */
export const SESSION_KEEP_MS = 7 * 86400_000;
/** An uploaded face waits this long for its person form to be saved. */
export const UPLOAD_KEEP_MS = 86400_000;

/** The hourly chores: expired sessions and face files no person holds. */
export function housekeeping(deps: { database: Database; photos: PhotoStore }) {
  const { database, photos } = deps;
  return {
    async run(): Promise<{ faces: number }> {
      const now = clock.now();
      await sessionsRepository.deleteExpired(database.db, new Date(now - SESSION_KEEP_MS).toISOString());
      const faces = await photos.sweep(now - UPLOAD_KEEP_MS, (companyId) => personsRepository.photoNames(database.db, companyId));
      return { faces };
    },
  };
}
export type Housekeeping = ReturnType<typeof housekeeping>;
