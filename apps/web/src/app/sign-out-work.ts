import { messages } from '@carteirinha/shared/messages';
import { forgetThisBrowser } from '@/features/push/lib/forget-this-browser';
import { authClient } from '@/lib/auth-client';

/**
 * What 'Sair' does, loaded when it is pressed: every portal page has the button, few visits use it. This browser's
 * notifications end with the session (issue 29), then the session itself.
 */
export async function signOutOfEverything(): Promise<void> {
  await forgetThisBrowser();
  const { error } = await authClient.signOut();
  if (error) throw new Error(error.message ?? messages.errors.INTERNAL);
}
