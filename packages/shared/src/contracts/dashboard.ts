import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';
import { LogItem } from './logs.ts';

export const DashboardSummary = Type.Object({
  managers: Type.Integer(),
  subManagers: Type.Integer(),
  unreadMessages: Type.Integer(),
  operationsToday: Type.Integer(),
  recentLogs: Type.Array(LogItem),
});
export type DashboardSummary = Static<typeof DashboardSummary>;
/** tzOffset: minutes east of UTC (like -Date#getTimezoneOffset()), so "today" is the viewer's day. */
export const DashboardQuery = Type.Object({ tzOffset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })) });

export const dashboardApi = {
  summary: endpoint({ method: 'GET', path: '/dashboard/summary', query: DashboardQuery, response: DashboardSummary }),
};
