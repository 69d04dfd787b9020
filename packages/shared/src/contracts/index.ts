export * from './endpoint.ts';
export * from './common.ts';
export * from './request.ts';
export * from './auth.ts';
export * from './companies.ts';
export * from './managers.ts';
export * from './logs.ts';
export * from './messages.ts';
export * from './dashboard.ts';
export * from './departments.ts';
export * from './persons.ts';
export * from './devices.ts';
export * from './punches.ts';
export * from './attendance.ts';
export * from './health.ts';
export * from './breakers.ts';
export * from './workflow.ts';
export * from './live.ts';
export * from './strangers.ts';
export * from './dormitory.ts';
export * from './sites.ts';
export * from './leave.ts';
export * from './visitors.ts';
export * from './integrations.ts';
export * from './parking.ts';
export * from './firmware.ts';
export * from './system.ts';
export * from './legacy.ts';

import { attendanceApi } from './attendance.ts';
import { authApi } from './auth.ts';
import { breakersApi } from './breakers.ts';
import { companiesApi } from './companies.ts';
import { dashboardApi } from './dashboard.ts';
import { departmentsApi } from './departments.ts';
import { devicesApi } from './devices.ts';
import { dormitoryApi } from './dormitory.ts';
import { firmwareApi } from './firmware.ts';
import { healthApi } from './health.ts';
import { integrationsApi } from './integrations.ts';
import { leaveApi } from './leave.ts';
import { liveApi } from './live.ts';
import { logsApi } from './logs.ts';
import { managersApi } from './managers.ts';
import { messagesApi } from './messages.ts';
import { personsApi } from './persons.ts';
import { punchesApi } from './punches.ts';
import { sitesApi } from './sites.ts';
import { selfApi, workflowApi } from './workflow.ts';
import { strangersApi } from './strangers.ts';
import { selfVisitorsApi, visitApi, visitorsApi } from './visitors.ts';
import { parkingApi } from './parking.ts';
import { systemApi } from './system.ts';
import { legacyApi } from './legacy.ts';

/** Every entry of the management API by server module. */
export const apiContract = {
  auth: authApi,
  companies: companiesApi,
  managers: managersApi,
  logs: logsApi,
  messages: messagesApi,
  dashboard: dashboardApi,
  departments: departmentsApi,
  persons: personsApi,
  devices: devicesApi,
  punches: punchesApi,
  attendance: attendanceApi,
  health: healthApi,
  breakers: breakersApi,
  workflow: workflowApi,
  self: selfApi,
  live: liveApi,
  strangers: strangersApi,
  dormitory: dormitoryApi,
  sites: sitesApi,
  leave: leaveApi,
  visitors: visitorsApi,
  selfVisitors: selfVisitorsApi,
  visit: visitApi,
  integrations: integrationsApi,
  parking: parkingApi,
  legacy: legacyApi,
  firmware: firmwareApi,
  system: systemApi,
};
