import { clock } from '../../lib/time.ts';
import { defineModule, type Core } from '../../module.ts';
import { adminLinkService } from './admin-link.service.ts';
import { peopleChangedHook } from './people-changed.ts';
import { importService } from './persons.import.ts';
import { personsRepository } from './persons.repository.ts';
import personsRoutes from './persons.routes.ts';
import { personsService } from './persons.service.ts';
import { faceChecker } from './face-check.ts';
import { photoStore } from './photos.ts';

/** An uploaded face waits this long for its person form to be saved. */
export const UPLOAD_KEEP_MS = 86400_000;

/**
 * People with their faces, import and export (spec §2 /user/list). Every write of people emits
 * `peopleChanged` in its transaction; devices and attendance listen to it.
 */
export function personsModule(core: Core) {
  const { database } = core;
  const photos = photoStore(core.files, core.config.dataDir, (companyId, names) => personsRepository.photosInUse(database.db, companyId, names));
  const peopleChanged = peopleChangedHook();
  // Punch photos are punches/<company>/<device>/<name> in the file store (punches.service.ts punchPhotoStore).
  const removePunchPhoto = async (companyId: number, deviceId: number, name: string) => {
    if (/^[\w-]+\.jpg$/.test(name)) await core.files.delete(`punches/${companyId}/${deviceId}/${name}`);
  };
  const faceCheck = faceChecker(core.config.faceCheck, core.log);
  const persons = personsService({ database, photos, peopleChanged, removePunchPhoto, faceCheck });
  const imports = importService({ database, photos, peopleChanged, faceCheck });
  /** Face files no person holds, once a day old (a cancelled drawer's upload), and half-written files. */
  const sweepFaces = () => photos.sweep(clock.now() - UPLOAD_KEEP_MS, (companyId) => personsRepository.photoNames(database.db, companyId));
  return defineModule({
    name: 'persons',
    photos,
    peopleChanged,
    /** the face check every stored face passes (uploads, imports, a terminal's faces taken over) */
    faceCheck,
    persons,
    sweepFaces,
    routes: (app) => personsRoutes(app, { database, persons, imports, links: adminLinkService({ database }) }),
    jobs: [
      {
        name: 'faces.sweep',
        every: 3600_000,
        // Not exclusive on disk: faces live in each instance's DATA_DIR; a shared store is swept by one instance.
        exclusive: core.files.kind !== 'disk',
        run: async () => {
          const faces = await sweepFaces();
          if (faces) core.log.info({ faces }, 'unattached face uploads deleted');
        },
      },
    ],
  });
}
