import {
  memberImportPreviewSchema,
  memberImportResultSchema,
  type MemberImportConfirm,
  type MemberImportRequest,
} from '@carteirinha/shared/contracts/member-imports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

/** POST /api/clinic/member-imports/preview: every line of the file with its errors; the server writes nothing. */
export function useMemberImportPreview() {
  return useMutation({
    mutationFn: (input: MemberImportRequest) =>
      apiRequest('/api/clinic/member-imports/preview', memberImportPreviewSchema, { method: 'POST', body: input, intent: 'read' }),
  });
}

/**
 * 'Confirmar importação': all the good lines in one transaction. A double click or a retry after a lost answer carries
 * the same Idempotency-Key (one per preview confirmed), so the people are never enrolled twice.
 */
export function useConfirmMemberImport() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: MemberImportConfirm) =>
      apiRequest('/api/clinic/member-imports', memberImportResultSchema, {
        method: 'POST',
        body: input,
        idempotencyKey: keys.keyFor(input),
      }),
    onSuccess: () => {
      keys.settle();
      return queryClient.invalidateQueries({ queryKey: ['members'] });
    },
  });
}
