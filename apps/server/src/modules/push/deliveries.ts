/**
 * Each notice a patient gets by push is one job per browser of theirs on the 'push-deliveries' queue (ADR 012), keyed
 * by the notice's job and the browser: a notice retried (its job taken over, a second server) hands each browser one
 * delivery, and a delivery retried after a push service error goes to that browser alone — never twice to one that
 * already had it. A browser the push service no longer knows (404, 410) is pruned; when it was the account's last,
 * the notice goes by e-mail instead (the fallback job the notice handed over, once per notice).
 */
import { z } from 'zod';
import { pushMessageSchema, type PushMessage } from '@carteirinha/shared/contracts/push';
import type { Database } from '../../db/client.ts';
import { exponentialBackoff } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { isAcceptedEndpoint, type EndpointPolicy } from './endpoint-policy.ts';
import { findPushSubscription, markPushDelivered, prunePushSubscription, pushSubscriptionsOfUser } from './repository.ts';
import { deliverPush } from './sender.ts';
import type { VapidKeyStore } from './vapid.ts';

export const PUSH_DELIVERY_QUEUE = 'push-deliveries';

/** What to enqueue when no browser is left to take the notice: the e-mail of the same notice. */
const fallbackSchema = z.object({ queue: z.string(), payload: z.record(z.string(), z.unknown()), key: z.string() });
export type PushFallback = z.infer<typeof fallbackSchema>;

const deliverySchema = z.object({ userId: z.uuid(), subscriptionId: z.uuid(), message: pushMessageSchema, fallback: fallbackSchema });

export type PushDeliveryDeps = {
  db: Database;
  jobs: Pick<JobRunner, 'enqueue'>;
  keys: VapidKeyStore;
  /** The VAPID subject (RFC 8292): how a push service reaches the platform's operator, a mailto: or https: URL. */
  subject: () => Promise<string>;
  policy: EndpointPolicy;
  log: JobLog;
};

/**
 * Hands a notice to every browser of the account that receives notifications, in one transaction; answers how many
 * (0: none, and the caller e-mails instead). `noticeKey` names the notice once (its job's id).
 */
export async function handToBrowsers(deps: PushDeliveryDeps, notice: { noticeKey: string; userId: string; message: PushMessage; fallback: PushFallback }): Promise<number> {
  const browsers = (await pushSubscriptionsOfUser(deps.db, notice.userId)).filter((row) => isAcceptedEndpoint(row.endpoint, deps.policy));
  if (browsers.length === 0) return 0;
  await deps.db.transaction(async (tx) => {
    for (const browser of browsers) {
      const payload = { userId: notice.userId, subscriptionId: browser.id, message: notice.message, fallback: notice.fallback };
      await deps.jobs.enqueue(PUSH_DELIVERY_QUEUE, payload, { tx, singletonKey: `${notice.noticeKey}:${browser.id}` });
    }
  });
  return browsers.length;
}

/** A push service down for a while: 1 min, 2 min … then hourly, for about half a day. */
const DELIVERY_RETRIES = {
  concurrency: 4,
  leaseMs: 60_000,
  maxAttempts: 15,
  backoff: exponentialBackoff({ baseMs: 60_000, maxMs: 60 * 60_000 }),
  // A worker that died mid-post may have delivered: at most once, like the e-mails.
  abandoned: 'fail' as const,
};

export function registerPushDeliveries(runner: JobRunner, deps: PushDeliveryDeps): void {
  runner.register(
    PUSH_DELIVERY_QUEUE,
    async (job) => {
      const work = deliverySchema.parse(job.payload);
      const browser = await findPushSubscription(deps.db, work.subscriptionId);
      // Still this account's browser (not turned off, not taken over by another account since): deliver.
      if (browser && browser.userId === work.userId && isAcceptedEndpoint(browser.endpoint, deps.policy)) {
        const outcome = await deliverPush(browser, work.message, await deps.keys.get(), await deps.subject());
        if (outcome === 'delivered') {
          await markPushDelivered(deps.db, browser.id, job.startedAt);
          return;
        }
        await prunePushSubscription(deps.db, browser.id);
        deps.log.info({ subscriptionId: browser.id, userId: work.userId }, 'push.subscription_pruned');
      }
      if ((await pushSubscriptionsOfUser(deps.db, work.userId)).length > 0) return;
      await deps.jobs.enqueue(work.fallback.queue, work.fallback.payload, { singletonKey: work.fallback.key });
    },
    DELIVERY_RETRIES,
  );
}
