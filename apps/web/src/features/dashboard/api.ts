import { useQuery } from '@tanstack/react-query';
import type { LogItem } from '@faceadmin/shared';
import { get } from '../../app/request.ts';

export interface DashboardSummary {
  managers: number;
  subManagers: number;
  unreadMessages: number;
  operationsToday: number;
  recentLogs: LogItem[];
}

export const useDashboardSummary = () => useQuery({ queryKey: ['dashboard', 'summary'], queryFn: () => get<DashboardSummary>('/dashboard/summary') });
