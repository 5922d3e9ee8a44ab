import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { saoPauloDay } from '@carteirinha/shared/sao-paulo-time';
import { retryPropsOf } from '@/components/ui/error-state';
import { CardValidator } from '@/features/cards/components/card-validator';
import { useVisits } from '@/features/visits/api/list-visits';
import { VisitSummaryList } from './visit-summary-list';

const d = messages.clinicDashboard;
const s = messages.cardScreens;

/**
 * The desk's Dashboard (clinic_staff): the validation box of Validar Cartão, with its result panel and Registrar
 * Atendimento, and today's visits (São Paulo's day) to see who is expected. No money figures: those are the admin's.
 */
export function ClinicStaffDashboard() {
  const today = saoPauloDay(new Date());
  const visits = useVisits({ q: '', page: 1, pageSize: PAGE_SIZE_DEFAULT, from: today, to: today });
  return (
    <>
      <CardValidator source="manual" label={s.lookupLabel} placeholder={s.lookupPlaceholder} />
      <VisitSummaryList
        title={d.todayVisits}
        emptyText={d.todayVisitsEmpty}
        visits={visits.data?.items}
        {...retryPropsOf(visits)}
        showAmounts={false}
        testId="today-visits"
      />
    </>
  );
}
