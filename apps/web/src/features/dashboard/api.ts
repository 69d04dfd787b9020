import { useQuery } from '@tanstack/react-query';
import { dashboardApi } from '@faceadmin/shared';
import { call } from '../../app/request.ts';

export const useDashboardSummary = () => useQuery({ queryKey: ['dashboard', 'summary'], queryFn: () => call(dashboardApi.summary, {}, { inline: true }) });
