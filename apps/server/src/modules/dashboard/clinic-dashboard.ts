/**
 * The clinic's Dashboard (issue 25, specification §2): four KPIs computed from the clinic's own rows, its recent
 * visits, the charts of the last 12 weeks, and the first steps of a new clinic. Every figure reads one clinic (its id
 * first in each condition) and takes the instant it is asked for, so a test that fixes the clock fixes the figures.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ClinicCharts, ClinicDashboard, FirstStep, FirstSteps } from '@carteirinha/shared/contracts/dashboard';
import { FIRST_STEPS } from '@carteirinha/shared/contracts/dashboard';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { rowsOf } from '../../lib/sql.ts';
import { recentClinicVisits } from '../visits/service.ts';

type Scope = { clinicId: string };

const DAY_MS = 24 * 60 * 60 * 1000;
const CONVERSION_WINDOW_DAYS = 30;
const CHART_WEEKS = 12;
const RECENT_VISITS = 5;

const figure = z.coerce.number();

/** The São Paulo day `day` (yyyy-MM-dd) moved by `days`. */
function shiftDay(day: string, days: number): string {
  return saoPauloDay(new Date(saoPauloMidnight(day).getTime() + days * DAY_MS + 12 * 60 * 60 * 1000));
}

/** Monday of the São Paulo week `day` is in (weeks run Monday to Sunday, as Brazilian calendars print them). */
function mondayOf(day: string): string {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return shiftDay(day, -((weekday + 6) % 7));
}

/**
 * The four KPIs: visits of today (booked or done, not cancelled), patients covered now (holders of an active
 * subscription and their dependents), today's revenue from concluded visits, and the share of the last 30 days'
 * sign-ups that hold an active subscription.
 */
async function kpisOf(db: Database, scope: Scope, now: Date): Promise<ClinicDashboard['kpis']> {
  const todayStart = saoPauloMidnight(saoPauloDay(now));
  const tomorrowStart = new Date(todayStart.getTime() + DAY_MS);
  const signUpsSince = new Date(now.getTime() - CONVERSION_WINDOW_DAYS * DAY_MS);
  const [row] = await rowsOf(
    db,
    sql`
      select
        (select count(*) from visits v
          where v.clinic_id = ${scope.clinicId} and v.performed_at >= ${todayStart.toISOString()}::timestamptz
            and v.performed_at < ${tomorrowStart.toISOString()}::timestamptz and v.status <> 'cancelado') as appointments_today,
        (select coalesce(sum(v.final_cents), 0) from visits v
          where v.clinic_id = ${scope.clinicId} and v.status = 'concluido' and v.performed_at >= ${todayStart.toISOString()}::timestamptz
            and v.performed_at < ${tomorrowStart.toISOString()}::timestamptz) as revenue_today,
        (select count(*) from subscriptions s where s.clinic_id = ${scope.clinicId} and s.status = 'active') as active_holders,
        (select count(*) from dependents d
          where d.clinic_id = ${scope.clinicId} and d.removed_at is null
            and exists (select 1 from subscriptions s where s.clinic_id = d.clinic_id and s.user_id = d.holder_user_id and s.status = 'active')) as active_dependents,
        (select count(*) from user_roles r
          where r.clinic_id = ${scope.clinicId} and r.role = 'patient' and r.created_at >= ${signUpsSince.toISOString()}::timestamptz) as sign_ups,
        (select count(*) from user_roles r
          where r.clinic_id = ${scope.clinicId} and r.role = 'patient' and r.created_at >= ${signUpsSince.toISOString()}::timestamptz
            and exists (select 1 from subscriptions s where s.clinic_id = r.clinic_id and s.user_id = r.user_id and s.status = 'active')) as converted`,
    z.object({
      appointments_today: figure,
      revenue_today: figure,
      active_holders: figure,
      active_dependents: figure,
      sign_ups: figure,
      converted: figure,
    }),
  );
  if (!row) throw new Error('dashboard figures not read');
  return {
    appointmentsToday: row.appointments_today,
    activePatients: row.active_holders + row.active_dependents,
    revenueTodayCents: row.revenue_today,
    conversion: {
      signUps: row.sign_ups,
      converted: row.converted,
      // One decimal place; no sign-ups is no rate (the card says so instead of a misleading 0 %).
      ratePercent: row.sign_ups === 0 ? null : Math.round((row.converted / row.sign_ups) * 1000) / 10,
    },
  };
}

/** GET /api/clinic/dashboard: the KPIs and the latest visits with the patient's name. */
export async function clinicDashboard(db: Database, scope: Scope, now: Date): Promise<ClinicDashboard> {
  const [kpis, recentVisits] = await Promise.all([kpisOf(db, scope, now), recentClinicVisits(db, scope, RECENT_VISITS, now)]);
  return { kpis, recentVisits };
}

/**
 * GET /api/clinic/dashboard/charts: the last 12 weeks to today — visits (not cancelled) and successful validations
 * per São Paulo day, and per week (Monday to Sunday) the revenue of concluded visits and of the subscription charges
 * received. Days and weeks without any are zeros, so the charts have no gaps.
 */
export async function clinicCharts(db: Database, scope: Scope, now: Date): Promise<ClinicCharts> {
  const today = saoPauloDay(now);
  const firstWeek = shiftDay(mondayOf(today), -7 * (CHART_WEEKS - 1));
  const from = saoPauloMidnight(firstWeek).toISOString();
  const until = new Date(saoPauloMidnight(today).getTime() + DAY_MS).toISOString();
  const localDay = (column: SQL) => sql`to_char(${column} at time zone 'America/Sao_Paulo', 'YYYY-MM-DD')`;
  const [visitDays, validationDays, visitRevenue, chargeRevenue] = await Promise.all([
    rowsOf(
      db,
      sql`select ${localDay(sql`v.performed_at`)} as day, count(*) as total from visits v
        where v.clinic_id = ${scope.clinicId} and v.performed_at >= ${from}::timestamptz and v.performed_at < ${until}::timestamptz and v.status <> 'cancelado'
        group by 1`,
      z.object({ day: z.string(), total: figure }),
    ),
    rowsOf(
      db,
      sql`select ${localDay(sql`c.created_at`)} as day, count(*) as total from card_validations c
        where c.clinic_id = ${scope.clinicId} and c.created_at >= ${from}::timestamptz and c.created_at < ${until}::timestamptz and c.result = 'valid'
        group by 1`,
      z.object({ day: z.string(), total: figure }),
    ),
    rowsOf(
      db,
      sql`select ${localDay(sql`v.performed_at`)} as day, sum(v.final_cents) as total from visits v
        where v.clinic_id = ${scope.clinicId} and v.performed_at >= ${from}::timestamptz and v.performed_at < ${until}::timestamptz and v.status = 'concluido'
        group by 1`,
      z.object({ day: z.string(), total: figure }),
    ),
    rowsOf(
      db,
      sql`select ${localDay(sql`p.paid_at`)} as day, sum(p.amount_cents) as total from payments p
        where p.clinic_id = ${scope.clinicId} and p.paid_at >= ${from}::timestamptz and p.paid_at < ${until}::timestamptz and p.status in ('confirmed', 'received')
        group by 1`,
      z.object({ day: z.string(), total: figure }),
    ),
  ]);
  const byDay = (rows: { day: string; total: number }[]) => new Map(rows.map((row) => [row.day, row.total]));
  const visitsOn = byDay(visitDays);
  const validationsOn = byDay(validationDays);
  const days: ClinicCharts['days'] = [];
  for (let day = firstWeek; day <= today; day = shiftDay(day, 1)) {
    days.push({ day, visits: visitsOn.get(day) ?? 0, validations: validationsOn.get(day) ?? 0 });
  }
  const weekTotals = (rows: { day: string; total: number }[]) => {
    const totals = new Map<string, number>();
    for (const row of rows) totals.set(mondayOf(row.day), (totals.get(mondayOf(row.day)) ?? 0) + row.total);
    return totals;
  };
  const visitWeeks = weekTotals(visitRevenue);
  const chargeWeeks = weekTotals(chargeRevenue);
  const weeks = Array.from({ length: CHART_WEEKS }, (_, index) => {
    const weekStart = shiftDay(firstWeek, 7 * index);
    return { weekStart, visitRevenueCents: visitWeeks.get(weekStart) ?? 0, subscriptionRevenueCents: chargeWeeks.get(weekStart) ?? 0 };
  });
  return { days, weeks };
}

/**
 * Which first steps the clinic has taken, each read from what it did: a plan saved by its admin and on sale, the terms
 * saved once (the starter programme writes version 1), an Asaas account connected, a logo or a colour, a service, a second member of the team (invited or in), a
 * card validated.
 */
async function stepsTaken(db: Database, scope: Scope): Promise<Record<FirstStep, boolean>> {
  const [row] = await rowsOf(
    db,
    sql`
      select
        exists (select 1 from subscription_plans p where p.clinic_id = ${scope.clinicId} and p.is_active and not p.awaiting_review) as review_plan,
        exists (select 1 from contract_terms t where t.clinic_id = ${scope.clinicId} and t.version > 1) as review_terms,
        exists (select 1 from clinic_settings s where s.clinic_id = ${scope.clinicId} and s.asaas_api_key_encrypted is not null) as connect_payments,
        exists (select 1 from clinics c where c.id = ${scope.clinicId} and (c.logo_url is not null or c.primary_color is not null)) as branding,
        exists (select 1 from services s where s.clinic_id = ${scope.clinicId}) as first_service,
        (select count(*) from user_roles r where r.clinic_id = ${scope.clinicId} and r.role in ('clinic_admin', 'clinic_staff')) > 1 as first_team_member,
        exists (select 1 from card_validations c where c.clinic_id = ${scope.clinicId} and c.result = 'valid') as first_validation`,
    z.object({
      review_plan: z.boolean(),
      review_terms: z.boolean(),
      connect_payments: z.boolean(),
      branding: z.boolean(),
      first_service: z.boolean(),
      first_team_member: z.boolean(),
      first_validation: z.boolean(),
    }),
  );
  if (!row) throw new Error('first steps not read');
  return {
    reviewPlan: row.review_plan,
    reviewTerms: row.review_terms,
    connectPayments: row.connect_payments,
    branding: row.branding,
    firstService: row.first_service,
    firstTeamMember: row.first_team_member,
    firstValidation: row.first_validation,
  };
}

/** GET /api/clinic/first-steps: the checklist, the clinic's site address, and whether it still awaits approval. */
export async function firstSteps(db: Database, clinic: { id: string; name: string; awaitingApproval: boolean }, siteUrl: string): Promise<FirstSteps> {
  const taken = await stepsTaken(db, { clinicId: clinic.id });
  return {
    siteUrl,
    clinicName: clinic.name,
    awaitingApproval: clinic.awaitingApproval,
    steps: FIRST_STEPS.map((key) => ({ key, done: taken[key] })),
  };
}
