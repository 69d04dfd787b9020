import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messagesApi, TIMING, type MessageListQuery, type MessageReadBody } from '@faceadmin/shared';
import { livePoll, useLiveInvalidate, useLiveOpen } from '../../lib/live.ts';
import { call } from '../../lib/request.ts';

const keys = { all: ['message'] as const, count: ['message', 'count'] as const };

export const useMessages = (q: MessageListQuery) =>
  useQuery({
    queryKey: ['message', 'list', q],
    queryFn: () => call(messagesApi.list, q, { inline: true }),
    placeholderData: keepPreviousData,
  });

/**
 * Unread count for the bell: refetched when the live stream says messages changed, polled every 20 s (spec §9)
 * only while the stream is down; silent so a poll never spams toasts.
 */
export function useUnreadCount(enabled: boolean) {
  const open = useLiveOpen();
  useLiveInvalidate(enabled ? ['messages'] : [], keys.all);
  return useQuery({
    queryKey: keys.count,
    queryFn: () => call(messagesApi.count, undefined, { silent: true }),
    enabled,
    refetchInterval: livePoll(open, TIMING.messagePoll),
  });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageReadBody) => call(messagesApi.read, body),
    onSuccess: async (res) => {
      qc.setQueryData(keys.count, res);
      await qc.invalidateQueries({ queryKey: keys.all });
    },
  });
}
