import { and, count, desc, eq } from 'drizzle-orm';
import { DEMO_ACCOUNTS, DEMO_CLINIC_SLUG, DEMO_PASSWORD, PLATFORM_PLANS } from '@carteirinha/shared/constants';
import type { Role } from '@carteirinha/shared/roles';
import type { Auth } from '../modules/auth/auth.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { ensureSettingsRow } from '../modules/settings/repository.ts';
import { DEMO_SETTINGS } from '../modules/settings/store.ts';
import type { Database } from './client.ts';
import { clinics, contractTerms, cpfClaims, dependents, payments, plans, subscriptionPlans, subscriptions, userRoles, users } from './schema.ts';
import { defaultTermsBody } from '../modules/checkout/default-terms.ts';
import { issueCardsForSubscription } from '../modules/cards/issue.ts';
import { recordLocalCharge } from '../modules/payments/providers/local.ts';
import { addCycleToDay, shiftByCycles } from '../modules/subscriptions/periods.ts';
import { saoPauloDay, saoPauloMidnight } from '../lib/sao-paulo-time.ts';
import { ensureDemoClinicDetails, ensureDemoCompanyMembers, ensureDemoNetwork, ensureDemoPayouts, ensureDemoServices, ensureDemoVisits } from './demo-history.ts';

/** How long the demo patient has been a member: long enough for months of visits and charges on every screen. */
const DEMO_MEMBERSHIP_MONTHS = 4;

/** The calendar day `months` months before `day` (yyyy-MM-dd), the day of month kept or clamped to the month's end. */
function monthsBefore(day: string, months: number): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return `${targetYear}-${String(targetMonth).padStart(2, '0')}-${String(Math.min(date, lastDay)).padStart(2, '0')}`;
}
/** Clínica Demo's second receptionist (same demo password); not one of the four demo accounts of the sign-in page. */
const DEMO_SECOND_STAFF = 'bruno.recepcao@carteirinha.dev';

/** `cardBox`: the app's card box (app.cardBox), which seals the demo patient's card secrets. */
type SeedOptions = { db: Database; auth: Auth; cardBox: SecretBox; withDemo: boolean };

/** The platform's plans, from the same data the landing page shows; only on an empty table. */
async function seedPlatformPlans(db: Database): Promise<boolean> {
  const [row] = await db.select({ total: count() }).from(plans);
  if ((row?.total ?? 0) > 0) return false;
  await db.insert(plans).values(
    PLATFORM_PLANS.map((plan) => ({
      name: plan.name,
      priceCents: plan.priceCents,
      description: plan.description,
      maxPatients: plan.maxPatients,
      maxClinics: plan.maxClinics,
      features: [...plan.features],
      popular: plan.popular,
      isActive: true,
      ...plan.entitlements,
    })),
  );
  return true;
}

async function ensureUser(auth: Auth, db: Database, email: string, fullName: string): Promise<string> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) return existing.id;
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser({ email, name: fullName, emailVerified: true }, { method: 'admin' });
  const password = await ctx.password.hash(DEMO_PASSWORD);
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password });
  return user.id;
}

async function ensureRole(db: Database, userId: string, role: Role, clinicId: string | null): Promise<void> {
  await db.insert(userRoles).values({ userId, role, clinicId }).onConflictDoNothing({ target: userRoles.userId });
}

async function ensureDemoClinic(db: Database): Promise<string> {
  const [existing] = await db.select({ id: clinics.id }).from(clinics).where(eq(clinics.slug, DEMO_CLINIC_SLUG)).limit(1);
  if (existing) return existing.id;
  const [professional] = await db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'Professional')).limit(1);
  const [clinic] = await db
    .insert(clinics)
    .values({
      name: 'Clínica Demo',
      cnpj: '11222333000181',
      slug: DEMO_CLINIC_SLUG,
      status: 'active',
      planId: professional?.id ?? null,
      primaryColor: '#0d9488',
      city: 'São Paulo',
      state: 'SP',
      latitude: -23.5614,
      longitude: -46.6559,
    })
    .returning({ id: clinics.id });
  if (!clinic) throw new Error('could not create the demo clinic');
  await db.insert(subscriptionPlans).values([
    {
      clinicId: clinic.id,
      name: 'Plano Individual',
      description: 'Cartão de desconto para o titular.',
      priceCents: 8990,
      billingCycle: 'monthly',
      features: ['Consultas com 30% de desconto', 'Exames com 25% de desconto', 'Procedimentos com 20% de desconto'],
      maxMembers: 1,
    },
    {
      clinicId: clinic.id,
      name: 'Plano Família',
      description: 'O titular e até 3 dependentes.',
      priceCents: 14990,
      billingCycle: 'monthly',
      features: ['Titular e até 3 dependentes', 'Consultas com 30% de desconto', 'Exames com 25% de desconto', 'Procedimentos com 20% de desconto'],
      maxMembers: 4,
    },
  ]);
  return clinic.id;
}

/** Clínica Demo's contract terms, version 1 (checkout asks the patient to accept the current version). */
async function ensureDemoTerms(db: Database, clinicId: string): Promise<void> {
  const [existing] = await db.select({ id: contractTerms.id }).from(contractTerms).where(eq(contractTerms.clinicId, clinicId)).limit(1);
  if (existing) return;
  await db.insert(contractTerms).values({ clinicId, version: 1, body: defaultTermsBody('Clínica Demo', 5) }).onConflictDoNothing();
}

/**
 * The demo patient's subscription, on the plan that covers the most people (Plano Família, so Meu Perfil can show and
 * add dependents), as four months of Pix checkouts paid on time leave it: the plan's price, one charge
 * received per monthly period since it began, benefits since the first (no carência), paid through the current period
 * (settlement's `expires_at`). Near its end the embedded provider makes the next charge, which 'Simular pagamento'
 * pays, as for any patient.
 */
async function ensureActiveSubscription(db: Database, userId: string, clinicId: string): Promise<void> {
  const [existing] = await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  if (existing) return;
  const [plan] = await db
    .select({ id: subscriptionPlans.id, priceCents: subscriptionPlans.priceCents, billingCycle: subscriptionPlans.billingCycle })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.clinicId, clinicId))
    .orderBy(desc(subscriptionPlans.maxMembers), subscriptionPlans.priceCents)
    .limit(1);
  if (!plan) return;
  const now = new Date();
  const today = saoPauloDay(now);
  // Four months back to the day, so the current period begins today and the demo runs a month before its renewal.
  const timeOfDay = now.getTime() - saoPauloMidnight(today).getTime();
  const startedAt = new Date(saoPauloMidnight(monthsBefore(today, DEMO_MEMBERSHIP_MONTHS)).getTime() + timeOfDay);
  const periods: { start: string; end: string }[] = [];
  for (let start = saoPauloDay(startedAt); start <= today; start = addCycleToDay(start, plan.billingCycle)) {
    periods.push({ start, end: addCycleToDay(start, plan.billingCycle) });
  }
  await db.transaction(async (tx) => {
    const [subscription] = await tx
      .insert(subscriptions)
      .values({
        clinicId,
        userId,
        planId: plan.id,
        status: 'active',
        amountCents: plan.priceCents,
        paymentMethod: 'pix',
        provider: 'local',
        startedAt,
        benefitsStartAt: startedAt,
        expiresAt: shiftByCycles(startedAt, plan.billingCycle, periods.length),
        createdAt: startedAt,
      })
      .returning({ id: subscriptions.id });
    if (!subscription) throw new Error('could not create the demo subscription');
    for (const [index, period] of periods.entries()) {
      const paidAt = index === 0 ? startedAt : saoPauloMidnight(period.start);
      const chargeId = `demo-${subscription.id}-${index + 1}`;
      // The embedded provider's own record of each charge, paid (so that a refund of it, or its read-back, finds it).
      await recordLocalCharge(tx, clinicId, { id: chargeId, subscriptionId: null, status: 'RECEIVED', method: 'pix', amountCents: plan.priceCents, dueDate: period.start, paidAt }, paidAt);
      await tx.insert(payments).values({
        clinicId,
        subscriptionId: subscription.id,
        provider: 'local',
        providerPaymentId: chargeId,
        method: 'pix',
        amountCents: plan.priceCents,
        dueDate: period.start,
        periodStart: period.start,
        periodEnd: period.end,
        status: 'received',
        paidAt,
        createdAt: paidAt,
      });
    }
  });
}

/** The demo patient's dependent (issue 27): a child, with a CPF of their own claimed in the clinic. */
const DEMO_DEPENDENT = { fullName: 'Sofia Paciente', cpf: '42718365919', birthDate: '2016-08-14', relationship: 'child' } as const;

/**
 * The demo patient's dependent, as 'Adicionar' in Meu Perfil leaves one (the Família plan's price has no per-dependent
 * part, so the subscription's amount stays). Added before the cards are issued, so the dependent gets one too; the
 * holder's card stays first (cards are listed holder first). A no-op once the demo patient has any dependent.
 */
async function ensureDemoDependent(db: Database, userId: string, clinicId: string): Promise<void> {
  const [existing] = await db.select({ id: dependents.id }).from(dependents).where(and(eq(dependents.holderUserId, userId), eq(dependents.clinicId, clinicId))).limit(1);
  if (existing) return;
  await db.transaction(async (tx) => {
    const [dependent] = await tx.insert(dependents).values({ clinicId, holderUserId: userId, ...DEMO_DEPENDENT }).returning({ id: dependents.id });
    if (!dependent) throw new Error('could not create the demo dependent');
    await tx.insert(cpfClaims).values({ clinicId, cpf: DEMO_DEPENDENT.cpf, userId, dependentId: dependent.id }).onConflictDoNothing();
  });
}

/** The demo patient's cards (issue 15): issued as payment confirmation would; a no-op once they exist. */
async function ensureDemoCards(db: Database, cardBox: SecretBox, userId: string): Promise<void> {
  const [subscription] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  if (subscription) await issueCardsForSubscription(db, subscription.id, cardBox);
}

/**
 * Idempotent: the platform plans on an empty database, and (embedded default or SEED_DEMO=true) Clínica Demo with
 * its plans and the four demo accounts. Returns lines for the start-up log.
 */
export async function seedDatabase({ db, auth, cardBox, withDemo }: SeedOptions): Promise<{ report: string[] }> {
  const report: string[] = [];
  await ensureSettingsRow(db, withDemo ? DEMO_SETTINGS : {});
  if (await seedPlatformPlans(db)) report.push('Planos da plataforma criados.');
  if (!withDemo) return { report };

  const clinicId = await ensureDemoClinic(db);
  await ensureDemoTerms(db, clinicId);
  await ensureDemoClinicDetails(db, clinicId);
  const accounts: { email: string; name: string; role: Role; clinicId: string | null }[] = [
    { email: DEMO_ACCOUNTS.admin, name: 'Administrador da Plataforma', role: 'admin', clinicId: null },
    { email: DEMO_ACCOUNTS.clinicAdmin, name: 'Carla Gestora', role: 'clinic_admin', clinicId },
    { email: DEMO_ACCOUNTS.clinicStaff, name: 'Ana Atendente', role: 'clinic_staff', clinicId },
    // A second receptionist, so Equipe and 'Registrado por' have a team to show.
    { email: DEMO_SECOND_STAFF, name: 'Bruno Recepção', role: 'clinic_staff', clinicId },
    { email: DEMO_ACCOUNTS.patient, name: 'Paulo Paciente', role: 'patient', clinicId },
  ];
  const ids = new Map<string, string>();
  for (const account of accounts) {
    const userId = await ensureUser(auth, db, account.email, account.name);
    ids.set(account.email, userId);
    await ensureRole(db, userId, account.role, account.clinicId);
    if (account.role === 'patient') {
      await ensureActiveSubscription(db, userId, clinicId);
      await ensureDemoDependent(db, userId, clinicId);
      await ensureDemoCards(db, cardBox, userId);
    }
  }
  const owner = ids.get(DEMO_ACCOUNTS.clinicAdmin);
  const patient = ids.get(DEMO_ACCOUNTS.patient);
  const desk = [DEMO_ACCOUNTS.clinicStaff, DEMO_SECOND_STAFF, DEMO_ACCOUNTS.clinicAdmin].flatMap((email) => ids.get(email) ?? []);
  const now = new Date();
  if (owner) await ensureDemoServices(db, { clinicId, userId: owner }, now);
  if (owner) await ensureDemoCompanyMembers(db, { clinicId, userId: owner }, cardBox, now);
  if (owner) await ensureDemoNetwork(db, { clinicId, userId: owner }, now);
  if (patient) await ensureDemoVisits(db, clinicId, patient, desk, now);
  const platformAdmin = ids.get(DEMO_ACCOUNTS.admin);
  if (platformAdmin) await ensureDemoPayouts(db, clinicId, platformAdmin, now);
  report.push(
    `Contas de demonstração (senha ${DEMO_PASSWORD}): ${accounts.map((account) => `${account.email} (${account.role})`).join(', ')}`,
  );
  return { report };
}
