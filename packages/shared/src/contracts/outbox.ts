import { z } from 'zod';

/** An e-mail kept in the development outbox (used when no SMTP server is configured). */
export const outboxEmailSchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  transport: z.enum(['outbox', 'smtp']),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  error: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type OutboxEmail = z.infer<typeof outboxEmailSchema>;
