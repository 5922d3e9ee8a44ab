import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { periodSchema, printReportSchema, REPORT_KINDS, reportSummarySchema } from '@carteirinha/shared/contracts/reports';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvStream } from '../../lib/csv.ts';
import { printProjection, REPORTS, reportBatches } from './definitions.ts';
import { reportSummary } from './repository.ts';

const errors = errorResponses(400, 401, 403, 404);
const admin = { access: 'platform:manage' } as const;
const kindParams = z.object({ kind: z.enum(REPORT_KINDS) });
/** The print view shows the first rows, in fewer columns; the CSV has them all. */
const PRINT_ROW_LIMIT = 1000;

/** /admin/relatorios: the period summary, CSV exports streamed from the database, and the print view's rows. */
export const reportRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/reports/summary',
    { config: admin, schema: { tags: ['admin'], summary: 'Totais do período', querystring: periodSchema, response: { 200: reportSummarySchema, ...errors } } },
    async (request) => reportSummary(db, request.query),
  );

  app.get(
    '/api/admin/reports/:kind.csv',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Exporta o relatório em CSV (UTF-8 com BOM, separador ;)', params: kindParams, querystring: periodSchema },
    },
    async (request, reply) => {
      const definition = REPORTS[request.params.kind];
      if ((await definition.count(db, request.query)) === 0) throw new AppError('NOT_FOUND', messages.reports.noData);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${definition.fileName}"`)
        .send(csvStream(definition.header, reportBatches(db, definition, request.query)));
    },
  );

  app.get(
    '/api/admin/reports/:kind',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Linhas do relatório para impressão', params: kindParams, querystring: periodSchema, response: { 200: printReportSchema, ...errors } },
    },
    async (request) => {
      const definition = REPORTS[request.params.kind];
      const [total, first] = await Promise.all([definition.count(db, request.query), definition.batch(db, request.query, null, PRINT_ROW_LIMIT)]);
      return { title: definition.title, columns: [...definition.printColumns], rows: first.rows.map(printProjection(definition)), total };
    },
  );
};
