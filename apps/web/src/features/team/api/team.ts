import { teamListSchema, teamMemberSchema, type TeamInvitation, type TeamMember, type TeamRole } from '@carteirinha/shared/contracts/users';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

const TEAM_QUERY_KEY = ['team', 'list'] as const;

function memberPath(userId: string, action = ''): string {
  return `/api/clinic/team/${encodeURIComponent(userId)}${action}`;
}

function reloadTeam(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY });
}

/** GET /api/clinic/team: the clinic's administrators and receptionists, pending invitations included. */
export function useTeam() {
  return useQuery({
    queryKey: TEAM_QUERY_KEY,
    queryFn: async ({ signal }): Promise<TeamMember[]> => (await apiRequest('/api/clinic/team', teamListSchema, { signal })).items,
  });
}

/** 'Enviar convite': the e-mailed link lands on the clinic's own site. */
export function useInviteMember() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: TeamInvitation): Promise<TeamMember> =>
      apiRequest('/api/clinic/team', teamMemberSchema, { method: 'POST', body: input, idempotencyKey: keys.keyFor(input) }),
    onSuccess: () => {
      keys.settle();
      return reloadTeam(queryClient);
    },
  });
}

/** 'Alterar função': the person's sessions end, so the new rights apply at once. */
export function useChangeMemberRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: TeamRole }): Promise<TeamMember> =>
      apiRequest(memberPath(userId, '/role'), teamMemberSchema, { method: 'PUT', body: { role } }),
    onSuccess: () => reloadTeam(queryClient),
  });
}

/** 'Remover acesso', or 'Cancelar convite' for someone who has not created a password yet. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiRequest(memberPath(userId), z.null(), { method: 'DELETE' }),
    onSuccess: () => reloadTeam(queryClient),
  });
}

/** 'Reenviar convite': a new link; the invitation stays pending, so nothing on the list moves. */
export function useResendTeamInvitation() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest(memberPath(userId, '/invitation'), z.null(), { method: 'POST' }),
  });
}
