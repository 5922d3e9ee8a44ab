import { eq } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { renderActionEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AccountHome } from './account-home.ts';

type CeilingNoticeDeps = { db: Database; mailer: Mailer; homeOf: (userId: string) => Promise<AccountHome> };

/**
 * The e-mail to an account's owner when its failed sign-ins reach the hourly ceiling (security checklist §7 item 2).
 * Failures are counted for any address typed, so nothing is sent for an address with no account. The text quotes
 * nothing a person typed: the account may be someone's sign-up with another person's address.
 */
export function createCeilingNotifier({ db, mailer, homeOf }: CeilingNoticeDeps): (email: string) => Promise<void> {
  return async (email) => {
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (!account) return;
    // Its link leads to the account's own sign-in page, like every e-mail to an account (issue 12, item 2).
    const home = await homeOf(account.id);
    await mailer.send(
      email,
      renderActionEmail({
        subject: messages.email.signInCeilingSubject,
        brandName: home.name,
        brandColor: home.color,
        intro: messages.email.signInCeilingIntro,
        actionLabel: messages.email.signInCeilingAction,
        actionUrl: `${home.baseUrl}/auth`,
        footer: messages.email.signInCeilingFooter,
      }),
    );
  };
}
