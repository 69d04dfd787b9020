import { defineModule, type Core } from '../../module.ts';
import dormitoryRoutes from './dormitory.routes.ts';

/** Dormitory in/out by building (issue #16 /dormitory, /dormitory2). */
export function dormitoryModule(core: Core) {
  return defineModule({ name: 'dormitory', routes: (app) => dormitoryRoutes(app, core) });
}
