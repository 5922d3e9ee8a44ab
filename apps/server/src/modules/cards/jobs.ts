import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { CARD_WORK_QUEUE, cardWorkSchema } from '../subscriptions/follow-ups.ts';
import { issueCardsForSubscription, suspendDependentCard } from './issue.ts';

/**
 * The cards module's part of a subscription's transitions (ADR 013 follow-ups): cards issued on activation and
 * suspended when a dependent leaves, as durable jobs written by the lifecycle in the transition's transaction. Each
 * run is idempotent (one card per person, a suspension is a date), so a retry or a duplicate changes nothing.
 */
export function registerCardJobs(runner: JobRunner, deps: { db: Database; box: SecretBox; log: JobLog }): void {
  runner.register(
    CARD_WORK_QUEUE,
    async (job) => {
      const work = cardWorkSchema.parse(job.payload);
      if (work.kind === 'issue') {
        const issued = await deps.db.transaction((tx) => issueCardsForSubscription(tx, work.subscriptionId, deps.box));
        deps.log.info({ subscriptionId: work.subscriptionId, issued }, 'cards.issued');
      } else {
        await deps.db.transaction((tx) => suspendDependentCard(tx, work.subscriptionId, work.dependentId, job.startedAt));
        deps.log.info({ subscriptionId: work.subscriptionId, dependentId: work.dependentId }, 'cards.suspended');
      }
    },
    // Quick work, often waited for (the patient opens 'Meu Cartão' right after paying): several at once.
    { concurrency: 4, leaseMs: 60_000, maxAttempts: 12 },
  );
}
