import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { integrationsApi, type ApiKeyInput, type DeliveryQuery, type WebhookInput, type WebhookUpdate } from '@faceadmin/shared';
import { useInvalidatingMutation } from '../../lib/mutations.ts';
import { call } from '../../lib/request.ts';

const keys = {
  all: ['integration'] as const,
  keys: ['integration', 'keys'] as const,
  webhooks: ['integration', 'webhooks'] as const,
  deliveries: (q: DeliveryQuery) => ['integration', 'deliveries', q] as const,
};

export const useApiKeys = () => useQuery({ queryKey: keys.keys, queryFn: () => call(integrationsApi.keys, undefined, { inline: true }) });
export const useWebhooks = () =>
  useQuery({ queryKey: keys.webhooks, queryFn: () => call(integrationsApi.webhooks, undefined, { inline: true }), refetchInterval: 10_000 });
/** A delivery's state moves on the server's own clock (retries, the job): the open drawer polls. */
export const useDeliveries = (q: DeliveryQuery, open: boolean) =>
  useQuery({
    queryKey: keys.deliveries(q),
    queryFn: () => call(integrationsApi.deliveries, q, { inline: true }),
    enabled: open,
    placeholderData: keepPreviousData,
    refetchInterval: open ? 2000 : false,
  });

const useIntegrationMutation = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(fn, [keys.all], { on: 'success' });
export const useCreateKey = () => useIntegrationMutation((body: ApiKeyInput) => call(integrationsApi.createKey, body));
export const useRevokeKey = () => useIntegrationMutation((id: number) => call(integrationsApi.revokeKey, { id }));
export const useCreateWebhook = () => useIntegrationMutation((body: WebhookInput) => call(integrationsApi.createWebhook, body));
export const useUpdateWebhook = () => useIntegrationMutation((body: WebhookUpdate) => call(integrationsApi.updateWebhook, body));
export const useDeleteWebhook = () => useIntegrationMutation((id: number) => call(integrationsApi.deleteWebhook, { id }));
export const useRotateSecret = () => useIntegrationMutation((id: number) => call(integrationsApi.rotateSecret, { id }));
export const useResumeWebhook = () => useIntegrationMutation((id: number) => call(integrationsApi.resumeWebhook, { id }));
export const useTestWebhook = () => useIntegrationMutation((id: number) => call(integrationsApi.testWebhook, { id }));
export const useRedeliver = () => useIntegrationMutation((id: number) => call(integrationsApi.redeliver, { id }));
