import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attendanceApi, type ScheduleQuery, type ScheduleSave } from '@faceadmin/shared';
import { call } from '../../../lib/request.ts';

export const scheduleKeys = {
  rules: ['attendance', 'schedule', 'rules'] as const,
  grid: (q: ScheduleQuery) => ['attendance', 'schedule', 'grid', q] as const,
};

/** The shift-mode rules (only they have a grid). */
export const useShiftRules = () =>
  useQuery({
    queryKey: scheduleKeys.rules,
    queryFn: () => call(attendanceApi.rules, undefined, { inline: true }),
    select: (d) => d.items.filter((r) => r.mode === 'shift'),
  });

export const useScheduleGrid = (q: ScheduleQuery | null) =>
  useQuery({
    queryKey: scheduleKeys.grid(q ?? { rule_id: 0, month: '' }),
    queryFn: () => call(attendanceApi.schedule, q!, { inline: true }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    // An editor must not be refreshed under the user's hands: the hash it loaded is what a save compares.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });

/** Saves with the client hash; a conflict (someone else saved first) comes back as an ApiError for the page to show. */
export const useSaveSchedule = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ScheduleSave) => call(attendanceApi.saveSchedule, body, { inline: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['attendance', 'schedule', 'grid'] }),
  });
};
