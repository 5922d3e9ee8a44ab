import type { Period, ReportSummary } from '@carteirinha/shared/contracts/reports';
import type { Database } from '../../db/client.ts';
import { reportSummary } from './repository.ts';

/** 'Estatísticas Gerais' of a period: the admin Relatórios' cards, and the platform team's weekly report e-mail. */
export function reportFigures(db: Database, period: Period): Promise<ReportSummary> {
  return reportSummary(db, period);
}
