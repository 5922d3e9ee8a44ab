import { messages } from '@carteirinha/shared/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toasts';
import { meQueryOptions, whileSigningOut } from './session';

async function signOut(): Promise<void> {
  // The auth client and the offline card's wipe come when 'Sair' is pressed (sign-out-work.ts).
  const { signOutOfEverything } = await import('./sign-out-work');
  await signOutOfEverything();
}

/**
 * Ends the session, forgets every cached answer that belonged to the user and lands on /auth (specification §4).
 * ['me'] is set to null rather than removed so that /auth knows at once that nobody is signed in.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      void whileSigningOut(async () => {
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryOptions.queryKey[0] });
        queryClient.setQueryData(meQueryOptions.queryKey, null);
        await navigate('/auth', { replace: true });
      });
    },
    onError: (error) => {
      const description = error instanceof TypeError ? messages.common.networkError : error.message;
      toast.error(messages.auth.signOutErrorTitle, { description });
    },
  });
}
