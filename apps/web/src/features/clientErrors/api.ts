import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { systemApi } from '@faceadmin/shared';
import { call } from '../../lib/request.ts';
import { useInvalidatingMutation } from '../../lib/mutations.ts';

export const useClientErrors = (q: { page: number; pageSize: number }) =>
  useQuery({
    queryKey: ['clientError', 'list', q],
    queryFn: () => call(systemApi.clientErrors, q, { inline: true }),
    placeholderData: keepPreviousData,
  });

export const useDeleteClientErrors = () =>
  useInvalidatingMutation((ids: number[]) => call(systemApi.deleteClientErrors, { ids }), [['clientError']], { on: 'settled' });
