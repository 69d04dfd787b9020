import { defineModule, type Core } from '../../module.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import type { PunchesService } from '../punches/punches.service.ts';
import legacyRoutes from './legacy.routes.ts';
import { legacyService } from './legacy.service.ts';

/** Taking over a working site from the old software's files (issue #30, docs/legacy-import.md). */
export function legacyModule(core: Core, deps: { punches: PunchesService; peopleChanged: PeopleChangedHook }) {
  const service = legacyService({ database: core.database, files: core.files, punches: deps.punches, peopleChanged: deps.peopleChanged, log: core.log });
  return defineModule({
    name: 'legacy',
    service,
    routes: (app) => legacyRoutes(app, service),
    jobs: [{ name: 'legacy.sweep', every: 3600_000, exclusive: true, run: () => service.sweep() }],
    // a run going on finishes its batch before the database closes
    close: () => service.settle(),
  });
}
