import { useCallback } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  attendanceApi,
  TIMING,
  type AbsenceInput,
  type ClosePeriodBody,
  type DayExportBody,
  type DayQuery,
  type HolidayInput,
  type ManualDayBody,
  type MonthExportBody,
  type MonthQuery,
  type RuleInput,
} from '@faceadmin/shared';
import { call, download } from '../../lib/request.ts';
import { useExportWithProgress, useInvalidatingMutation } from '../../lib/mutations.ts';

export const attKeys = {
  all: ['att'] as const,
  rules: ['att', 'rules'] as const,
  holidays: (year: number) => ['att', 'holidays', year] as const,
  days: ['att', 'days'] as const,
  dayList: (q: DayQuery) => ['att', 'days', q] as const,
  day: (personId: number, date: string) => ['att', 'day', personId, date] as const,
  absences: (personId: number, date: string) => ['att', 'absences', personId, date] as const,
  status: ['att', 'status'] as const,
};

export const useRules = () => useQuery({ queryKey: attKeys.rules, queryFn: () => call(attendanceApi.rules, undefined, { inline: true }) });

/** Rule changes recompute days, and holidays name rules: everything attendance is reloaded. */
export const useSaveRule = () =>
  useInvalidatingMutation(
    // inline: the drawer shows the refusal (e.g. another rule already claims these people) where it happened
    ({ id, body }: { id?: number | undefined; body: RuleInput }) =>
      id ? call(attendanceApi.updateRule, { id, ...body }, { inline: true }) : call(attendanceApi.createRule, body, { inline: true }),
    [attKeys.all],
    { on: 'success' },
  );
export const useDeleteRule = () => useInvalidatingMutation((id: number) => call(attendanceApi.deleteRule, { id }), [attKeys.all], { on: 'success' });

export const useHolidays = (year: number) =>
  useQuery({ queryKey: attKeys.holidays(year), queryFn: () => call(attendanceApi.holidays, { year }, { inline: true }), placeholderData: keepPreviousData });
export const useSaveHoliday = () =>
  useInvalidatingMutation(
    ({ id, body }: { id?: number | undefined; body: HolidayInput }) =>
      id ? call(attendanceApi.updateHoliday, { id, ...body }, { inline: true }) : call(attendanceApi.createHoliday, body, { inline: true }),
    [attKeys.all],
    { on: 'success' },
  );
export const useDeleteHoliday = () => useInvalidatingMutation((id: number) => call(attendanceApi.deleteHoliday, { id }), [attKeys.all], { on: 'success' });

/** The month report per person (a page of people, summed on the server). */
export const useMonthReport = (q: MonthQuery) =>
  useQuery({ queryKey: ['att', 'month', q], queryFn: () => call(attendanceApi.month, q, { inline: true }), placeholderData: keepPreviousData });

/** The company's leave types in the console's language (labels of the leave-by-type figures, #17). */
export const useLeaveTypes = () =>
  useQuery({ queryKey: ['att', 'leaveTypes'], queryFn: () => call(attendanceApi.leaveTypes, undefined, { inline: true }), staleTime: 60_000 });

/** The latest day up to today that has results (where the day view opens); asked only when `enabled`. */
export const useLatestDay = (enabled: boolean) =>
  useQuery({ queryKey: ['att', 'days', 'latest'], queryFn: () => call(attendanceApi.latestDay, undefined, { inline: true }), enabled, staleTime: 0 });

export const useDays = (q: DayQuery, enabled = true) =>
  // results follow new punches by themselves: the view follows them too
  useQuery({
    queryKey: attKeys.dayList(q),
    queryFn: () => call(attendanceApi.days, q, { inline: true }),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** One person-day's explanation; `pollMs` while a recorded change is being recomputed. */
export const useDay = (key: { person_id: number; date: string } | undefined, pollMs: number | false) =>
  useQuery({
    queryKey: key ? attKeys.day(key.person_id, key.date) : ['att', 'day', 'none'],
    queryFn: () => call(attendanceApi.day, key!, { inline: true }),
    enabled: Boolean(key),
    refetchInterval: pollMs,
  });

export const useAbsences = (personId: number | undefined, date: string | undefined) =>
  useQuery({
    queryKey: attKeys.absences(personId ?? 0, date ?? ''),
    queryFn: () => call(attendanceApi.absences, { person_id: personId!, from: date!, to: date! }, { inline: true }),
    enabled: Boolean(personId && date),
  });

const useAbsenceMutation = <V, R>(fn: (v: V) => Promise<R>) =>
  useInvalidatingMutation(fn, [['att', 'absences'], ['att', 'day'], attKeys.days], { on: 'success' });
export const useCreateAbsence = () => useAbsenceMutation((body: AbsenceInput) => call(attendanceApi.createAbsence, body));
export const useDeleteAbsence = () => useAbsenceMutation((id: number) => call(attendanceApi.deleteAbsence, { id }));
/** An administrator's result for a person-day (status null removes it); it stands until removed. */
export const useSetManual = () => useAbsenceMutation((body: ManualDayBody) => call(attendanceApi.setManual, body));

/** "Attendance update" (spec §8): queues the range; progress comes from useRecalcStatus. */
export const useRecalculate = () => useMutation({ mutationFn: (range: { from?: string; to?: string }) => call(attendanceApi.recalculate, range) });

export const useRecalcStatus = (enabled: boolean) =>
  useQuery({
    queryKey: attKeys.status,
    queryFn: () => call(attendanceApi.recalculateStatus, undefined, { silent: true }),
    enabled,
    refetchInterval: enabled ? 1000 : false,
  });

/** Reloads the day view's rows (a person-day was recomputed). Stable across renders. */
export const useRefreshDayList = () => {
  const qc = useQueryClient();
  return useCallback(() => qc.invalidateQueries({ queryKey: attKeys.days }), [qc]);
};

/** Reloads the day view (after an update finished). */
export const useRefreshDays = () => {
  const qc = useQueryClient();
  return useCallback(() => Promise.all([qc.invalidateQueries({ queryKey: attKeys.days }), qc.invalidateQueries({ queryKey: ['att', 'day'] })]), [qc]);
};

/** One person's month as a calendar (results, figures, first/last counted punch, totals). */
export const usePersonMonth = (personId: number | undefined, month: string) =>
  useQuery({
    queryKey: ['att', 'person', personId ?? 0, month],
    queryFn: () => call(attendanceApi.personMonth, { person_id: personId!, month }, { inline: true }),
    enabled: Boolean(personId),
    placeholderData: keepPreviousData,
  });

/** Day results over a range, streamed as a workbook (progress: bytes received). */
export const useExportDays = () =>
  useExportWithProgress((body: DayExportBody, onProgress) =>
    download(attendanceApi.exportDays, `attendance-${body.from}-${body.to}.xlsx`, { body, timeout: TIMING.exportTimeout, onProgress }),
  );
/** The month report of everyone the filters select, as a workbook. */
export const useExportMonth = () =>
  useExportWithProgress((body: MonthExportBody, onProgress) =>
    download(attendanceApi.exportMonth, `attendance-${body.month}.xlsx`, { body, timeout: TIMING.exportTimeout, onProgress }),
  );

/** Closed periods (#17): their days are neither recalculated nor edited until reopened. */
export const usePeriods = (enabled = true) =>
  useQuery({ queryKey: ['att', 'periods'], queryFn: () => call(attendanceApi.periods, undefined, { inline: true }), enabled });
export const useClosePeriod = () =>
  useInvalidatingMutation((body: ClosePeriodBody) => call(attendanceApi.closePeriod, body, { inline: true }), [['att', 'periods']], { on: 'success' });
export const useReopenPeriod = () => useInvalidatingMutation((id: number) => call(attendanceApi.reopenPeriod, { id }), [['att', 'periods']], { on: 'success' });
