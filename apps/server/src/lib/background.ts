import type { FastifyBaseLogger } from 'fastify';

export type BackgroundTasks = {
  /** Runs work after the answer is sent (an e-mail, most often); a failure is logged, never thrown at anyone. */
  run: (task: Promise<unknown>, what: string) => void;
  /** Resolves once every task started so far has ended: at shutdown, and in tests that read what a task wrote. */
  settled: () => Promise<void>;
};

/**
 * Work that must not hold the answer. A password-reset e-mail sent before answering makes a known address slower
 * than an unknown one (account enumeration, issue 12), and a slow SMTP server would hold the request.
 */
export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const pending = new Set<Promise<unknown>>();
  return {
    run(task, what) {
      const tracked = task.then(
        () => undefined,
        (error: unknown) => log.error({ task: what, reason: error instanceof Error ? error.message : String(error) }, 'background task failed'),
      );
      pending.add(tracked);
      void tracked.finally(() => pending.delete(tracked));
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
