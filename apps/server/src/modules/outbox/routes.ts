import { count, desc, ilike } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxEmailSchema } from '@carteirinha/shared/contracts/outbox';
import { listQuerySchema, pageOf } from '@carteirinha/shared/contracts/pagination';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import { containsPattern } from '../../lib/sql.ts';

/** Admins read the e-mails the platform produced (the development outbox when there is no SMTP server). */
export const outboxRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/outbox',
    {
      config: { access: 'outbox:read' },
      schema: {
        tags: ['admin'],
        summary: 'E-mails enviados ou guardados na caixa de saída',
        querystring: listQuerySchema,
        response: { 200: pageOf(outboxEmailSchema), 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => {
      const { q, page, pageSize } = request.query;
      const where = q ? ilike(emailOutbox.to, containsPattern(q)) : undefined;
      const [rows, totals] = await Promise.all([
        db.select().from(emailOutbox).where(where).orderBy(desc(emailOutbox.createdAt)).limit(pageSize).offset((page - 1) * pageSize),
        db.select({ total: count() }).from(emailOutbox).where(where),
      ]);
      return {
        items: rows.map((row) => ({ ...row, sentAt: row.sentAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() })),
        total: totals[0]?.total ?? 0,
        page,
        pageSize,
      };
    },
  );
};
