import { defineModule, type Core } from '../../module.ts';
import type { PunchPhotoStore } from '../punches/punches.service.ts';
import strangersRoutes from './strangers.routes.ts';

/**
 * Strangers (spec §2 /stranger): faces the terminals refused, an unknown face or a registered person, stored by
 * the punches module as punch rows (`stranger` 1 or 2) with their capture photos; listed and exported here.
 */
export function strangersModule(core: Core, deps: { photos: PunchPhotoStore }) {
  return defineModule({ name: 'strangers', routes: (app) => strangersRoutes(app, { database: core.database, photos: deps.photos }) });
}
