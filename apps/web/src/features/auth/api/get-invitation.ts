import { invitationPreviewSchema, type InvitationPreview } from '@carteirinha/shared/contracts/users';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/public/invitation?token=: whom the link invites (e-mail, role, clinic); 404 once it is used or expired. */
export function getInvitation(token: string, signal?: AbortSignal): Promise<InvitationPreview> {
  return apiRequest(`/api/public/invitation?${new URLSearchParams({ token }).toString()}`, invitationPreviewSchema, { signal });
}

export function useInvitation(token: string | null) {
  return useQuery({
    queryKey: ['public', 'invitation', token],
    queryFn: ({ signal }) => getInvitation(token ?? '', signal),
    enabled: token !== null,
    // A refused link stays refused: asking again would only delay the notice.
    retry: false,
  });
}
