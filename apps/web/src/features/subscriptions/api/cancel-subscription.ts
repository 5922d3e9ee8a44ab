import {
  cancellationPreviewSchema,
  cancelSubscriptionResponseSchema,
  type CancellationPreview,
  type CancelSubscriptionResponse,
} from '@carteirinha/shared/contracts/subscriptions';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateSubscriptionData, SUBSCRIPTION_QUERY_ROOT } from './subscription-queries';

/** GET /api/patient/subscription/cancellation: what cancelling now would do (refund, until when benefits last). */
export function getCancellationPreview(signal?: AbortSignal): Promise<CancellationPreview> {
  return apiRequest('/api/patient/subscription/cancellation', cancellationPreviewSchema, { signal });
}

const cancellationPreviewQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_QUERY_ROOT, 'cancellation'],
  queryFn: ({ signal }) => getCancellationPreview(signal),
  // The rules depend on today's date: read afresh every time the dialog opens.
  staleTime: 0,
  gcTime: 0,
});

/** Read only while the cancellation dialog is open. */
export function useCancellationPreview(enabled: boolean) {
  return useQuery({ ...cancellationPreviewQueryOptions, enabled });
}

/** POST /api/patient/subscription/cancel: cancels under the rule the preview showed; the receipt goes by e-mail. */
export function cancelSubscription(): Promise<CancelSubscriptionResponse> {
  return apiRequest('/api/patient/subscription/cancel', cancelSubscriptionResponseSchema, { method: 'POST', body: {} });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: async () => {
      // Once cancelled there is nothing to preview: the open dialog's preview is not read again, which the server
      // rightly answers 409 (the console showed it as an error); it is dropped when the dialog closes (gcTime 0).
      await invalidateSubscriptionData(queryClient, { except: cancellationPreviewQueryOptions.queryKey });
    },
  });
}
