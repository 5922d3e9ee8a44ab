import { paymentDocumentSchema, paymentListSchema, type Payment, type PaymentDocument } from '@carteirinha/shared/contracts/payments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { SUBSCRIPTION_QUERY_ROOT } from './subscription-queries';

/** GET /api/patient/payments: the patient's own charges, newest first. */
export async function listMyPayments(signal?: AbortSignal): Promise<Payment[]> {
  const { items } = await apiRequest('/api/patient/payments', paymentListSchema, { signal });
  return items;
}

export const myPaymentsQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_QUERY_ROOT, 'payments', 'list'],
  queryFn: ({ signal }) => listMyPayments(signal),
});

export function useMyPayments() {
  return useQuery(myPaymentsQueryOptions);
}

/** GET /api/patient/payments/:id: one of the patient's charges (the boleto and receipt pages). */
export function getMyPayment(id: string, signal?: AbortSignal): Promise<PaymentDocument> {
  return apiRequest(`/api/patient/payments/${encodeURIComponent(id)}`, paymentDocumentSchema, { signal });
}

export function myPaymentQueryOptions(id: string) {
  return queryOptions({
    queryKey: [SUBSCRIPTION_QUERY_ROOT, 'payments', 'one', id],
    queryFn: ({ signal }) => getMyPayment(id, signal),
  });
}

export function useMyPayment(id: string) {
  return useQuery(myPaymentQueryOptions(id));
}
