import { defineModule, type Core } from '../../module.ts';
import attendanceRoutes from './attendance.routes.ts';
import { holidaysService } from './holidays.service.ts';
import { rulesService } from './rules.service.ts';

/**
 * Attendance (issue #10): rules (fixed, shift, free), shifts and cycles, holidays; the engine in `engine/`
 * turns punches + rule + schedule + absences into explained day results.
 */
export function attendanceModule(core: Core) {
  const rules = rulesService(core.database);
  const holidays = holidaysService(core.database);
  return defineModule({ name: 'attendance', routes: (app) => attendanceRoutes(app, { rules, holidays }), rules, holidays });
}
