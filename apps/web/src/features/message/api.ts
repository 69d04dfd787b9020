import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMING, type MessageItem, type Page } from '@faceadmin/shared';
import { get, post } from '../../app/request.ts';

export interface MessageQuery {
  page: number;
  pageSize: number;
  unread?: boolean;
}

const keys = { all: ['message'] as const, count: ['message', 'count'] as const };

export const useMessages = (q: MessageQuery) =>
  useQuery({
    queryKey: ['message', 'list', q],
    queryFn: () => get<Page<MessageItem>>('/message/list', { page: q.page, pageSize: q.pageSize, unread: q.unread ? 1 : undefined }),
    placeholderData: keepPreviousData,
  });

/** Unread count for the bell, polled every 20 s (spec §9); silent so a poll never spams toasts. */
export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: keys.count,
    queryFn: () => get<{ count: number }>('/message/count', undefined, { silent: true }),
    enabled,
    refetchInterval: TIMING.messagePoll,
  });

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids?: number[]; all?: boolean }) => post<{ count: number }>('/message/read', body),
    onSuccess: async (res) => {
      qc.setQueryData(keys.count, res);
      await qc.invalidateQueries({ queryKey: keys.all });
    },
  });
}
