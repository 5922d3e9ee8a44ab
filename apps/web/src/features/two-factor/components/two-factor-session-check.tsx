import { messages } from '@carteirinha/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { meQueryOptions } from '@/app/session';
import { TwoFactorChallenge } from './two-factor-challenge';
import { TwoFactorPage } from './two-factor-page';

const t = messages.twoFactor;

/**
 * Shown instead of the portal when the user has a factor but this session did not pass it (a sign-in that does not
 * ask for the code, such as Google's, or a session older than the enrolment): the code, then the portal.
 */
export function TwoFactorSessionCheck({ totp }: { totp: boolean }) {
  const queryClient = useQueryClient();
  return (
    <TwoFactorPage title={t.sessionCheckTitle} description={totp ? t.sessionCheckDescription : messages.passkeys.securityKeyDescription}>
      <TwoFactorChallenge totp={totp} onVerified={() => queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey })} />
    </TwoFactorPage>
  );
}
