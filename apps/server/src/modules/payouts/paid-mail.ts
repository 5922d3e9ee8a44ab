import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { clinics, payouts, users } from '../../db/schema.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AccountHome } from '../auth/account-home.ts';
import { clinicAdminIds } from '../clinics/service.ts';
import { EMAIL_RETRIES } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';

export const PAYOUT_PAID_QUEUE = 'payout-paid-mail';

const payloadSchema = z.object({ payoutId: z.uuid(), userId: z.uuid() });

const m = messages.payouts;

type PaidPayout = { clinicName: string; period: string; grossCents: number; feeCents: number; netCents: number; paidAt: Date };

/** mm/yyyy of a payout's month (yyyy-MM-01). */
function monthLabel(period: string): string {
  return `${period.slice(5, 7)}/${period.slice(0, 4)}`;
}

/** What a clinic admin reads when the platform pays a payout: in the clinic's name and colour, linking to its host. */
export function payoutPaidEmail(home: AccountHome, payout: PaidPayout): RenderedEmail {
  const period = monthLabel(payout.period);
  return renderActionEmail({
    subject: formatMessage(m.paidSubject, { period, clinic: payout.clinicName }),
    brandName: home.name,
    brandColor: home.color,
    intro: formatMessage(m.paidIntro, {
      period,
      clinic: payout.clinicName,
      date: formatDate(payout.paidAt.toISOString()),
      net: formatMoney(payout.netCents),
      gross: formatMoney(payout.grossCents),
      fee: formatMoney(payout.feeCents),
    }),
    actionLabel: m.paidAction,
    actionUrl: `${home.baseUrl}/clinica/financeiro`,
    footer: formatMessage(m.paidFooter, { clinic: payout.clinicName }),
  });
}

/** One e-mail job per admin of the clinic, in the transaction that marks the payout paid. */
export async function enqueuePayoutPaidMails(jobs: Pick<JobRunner, 'enqueue'>, tx: Database, clinicId: string, payoutId: string): Promise<void> {
  for (const userId of await clinicAdminIds(tx, clinicId)) {
    await jobs.enqueue(PAYOUT_PAID_QUEUE, { payoutId, userId }, { tx, singletonKey: `payout-paid:${payoutId}:${userId}` });
  }
}

async function paidMailFacts(db: Database, payoutId: string, userId: string): Promise<(PaidPayout & { email: string }) | null> {
  const [row] = await db
    .select({
      email: users.email,
      clinicName: clinics.name,
      period: payouts.period,
      grossCents: payouts.grossCents,
      feeCents: payouts.feeCents,
      netCents: payouts.netCents,
      paidAt: payouts.paidAt,
    })
    .from(payouts)
    .innerJoin(clinics, eq(clinics.id, payouts.clinicId))
    .innerJoin(users, eq(users.id, userId))
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, 'pago')))
    .limit(1);
  if (!row?.paidAt) return null;
  return { ...row, paidAt: row.paidAt };
}

export type PayoutPaidMailDeps = { db: Database; mailer: Mailer; homeOf: (userId: string) => Promise<AccountHome>; log: JobLog };

export function registerPayoutPaidMail(runner: JobRunner, deps: PayoutPaidMailDeps): void {
  runner.register(
    PAYOUT_PAID_QUEUE,
    async (job) => {
      const { payoutId, userId } = payloadSchema.parse(job.payload);
      const facts = await paidMailFacts(deps.db, payoutId, userId);
      // The account went since the payment: nobody to tell.
      if (!facts) return;
      await deps.mailer.send(facts.email, payoutPaidEmail(await deps.homeOf(userId), facts));
      deps.log.info({ payoutId }, 'payout paid e-mailed');
    },
    EMAIL_RETRIES,
  );
}
