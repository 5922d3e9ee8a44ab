/**
 * The people side of the generated data, made in JavaScript: clinics with their plans, price lists and teams, and
 * patients with their subscription, dependents and cards. Everything that needs a library (valid CPFs and CNPJs,
 * card numbers with their check digit, card secrets sealed as the server seals them) or a decision per person is made
 * here; the rows that only follow from these (charges, visits, validations) are made by SQL (load.ts).
 *
 * Deterministic for a given seed, except the identifiers, card numbers and sealed secrets (random by design).
 */
import { randomUUID } from 'node:crypto';
import { generateCnpj, generateCpf, generatePhone } from '@brazilian-utils/brazilian-utils';
import type { ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import type { Role } from '@carteirinha/shared/roles';
import type { SecretBox } from '../../apps/server/src/lib/secret-box.ts';
import { generateCardNumber } from '../../apps/server/src/modules/cards/card-number.ts';
import { newCardSecret } from '../../apps/server/src/modules/cards/card-token.ts';
import { foldText } from '../../apps/server/src/lib/sql.ts';
import {
  CITIES,
  CLINIC_PREFIXES,
  CLINIC_WORDS,
  DEPENDENT_RELATIONSHIPS,
  FEMALE_NAMES,
  MALE_NAMES,
  SERVICE_CATALOGUE,
  SUBSCRIPTION_STATUS_SHARES,
  SURNAMES,
} from './vocabulary.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Visits and charges span two years before `now`; clinics are up to three years old. */
export const HISTORY_DAYS = 730;

/** mulberry32: a small, fast, seeded generator, so two runs with one seed make the same people. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function between(random: Random, from: number, to: number): number {
  return from + random() * (to - from);
}

function dateBetween(random: Random, from: Date, to: Date): Date {
  return new Date(Math.round(between(random, from.getTime(), to.getTime())));
}

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

function wholeMonthsBetween(from: Date, to: Date): number {
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  if (addMonths(from, months) > to) months -= 1;
  return Math.max(0, months);
}

/** An ISO day (yyyy-mm-dd) some years before `now`. */
function birthDay(random: Random, now: Date, minYears: number, maxYears: number): string {
  return new Date(now.getTime() - between(random, minYears, maxYears) * 365.25 * DAY_MS).toISOString().slice(0, 10);
}

/** Draws values from `draw` until one is new: CPFs, CNPJs and card numbers are unique where the product needs it. */
function uniqueDraw(seen: Set<string>, draw: () => string): string {
  for (;;) {
    const value = draw();
    if (!seen.has(value)) {
      seen.add(value);
      return value;
    }
  }
}

function slugOf(text: string): string {
  return foldText(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export type ClinicSeed = {
  id: string;
  name: string;
  cnpj: string;
  slug: string;
  status: ClinicStatus;
  platformPlanName: 'Starter' | 'Professional' | 'Enterprise';
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  primaryColor: string;
  createdAt: Date;
  approvedAt: Date | null;
  trialEndsAt: Date | null;
  plans: { individual: PatientPlanSeed; family: PatientPlanSeed };
  services: { id: string; name: string; category: string; priceCents: number }[];
};

export type PatientPlanSeed = { id: string; name: string; description: string; priceCents: number; dependentPriceCents: number; maxMembers: number; features: string[] };

export type PersonSeed = {
  id: string;
  name: string;
  email: string;
  cpf: string | null;
  phone: string | null;
  birthDate: string | null;
  role: Role;
  clinicId: string;
  createdAt: Date;
  lastSignInAt: Date | null;
};

export type SubscriptionSeed = {
  id: string;
  clinicId: string;
  userId: string;
  planId: string;
  status: SubscriptionStatus;
  createdAt: Date;
  startedAt: Date | null;
  expiresAt: Date | null;
  canceledAt: Date | null;
  amountCents: number;
  paymentMethod: PaymentMethod;
};

export type DependentSeed = { id: string; clinicId: string; holderUserId: string; fullName: string; cpf: string; birthDate: string; relationship: string; createdAt: Date };

export type CardSeed = { id: string; clinicId: string; subscriptionId: string; holderUserId: string; dependentId: string | null; number: string; secretEncrypted: string; issuedAt: Date };

export type Size = { clinics: number; patients: number; visits: number };

const COLOURS = ['#0d9488', '#2563eb', '#7c3aed', '#db2777', '#ea580c', '#16a34a', '#0891b2', '#4f46e5', '#b91c1c', '#0f766e'];
const EMAIL_DOMAINS = ['gmail.com', 'gmail.com', 'gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'bol.com.br', 'icloud.com'];

/**
 * How many of the platform's patients each clinic has: a long tail, as in any marketplace. With Zipf weights
 * 1/(rank + 5), at 500 clinics the largest holds about 3.7 % of the patients (1 850 of 50 000) and the median about
 * 0.3 %; clinics in trial have a handful.
 */
export function patientsPerClinic(clinics: readonly Pick<ClinicSeed, 'status'>[], patients: number): number[] {
  const weights = clinics.map((clinic, rank) => (clinic.status === 'trial' ? 0.02 : 1) / (rank + 5));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const counts = weights.map((weight) => Math.floor((patients * weight) / total));
  let left = patients - counts.reduce((sum, count) => sum + count, 0);
  for (let index = 0; left > 0; index = (index + 1) % counts.length, left -= 1) counts[index] = (counts[index] ?? 0) + 1;
  return counts;
}

function clinicStatus(random: Random, rank: number): ClinicStatus {
  // The largest clinics are the established ones.
  if (rank < 20) return 'active';
  const draw = random();
  if (draw < 0.84) return 'active';
  if (draw < 0.91) return 'trial';
  if (draw < 0.96) return 'suspended';
  return 'cancelled';
}

function patientPlans(random: Random): ClinicSeed['plans'] {
  const individualPrice = pick(random, [5990, 6990, 7990, 8990, 9990]);
  const familyPrice = individualPrice + pick(random, [4000, 5000, 6000]);
  const discounts = ['Consultas com 30% de desconto', 'Exames com 25% de desconto', 'Procedimentos com 20% de desconto'];
  return {
    individual: { id: randomUUID(), name: 'Plano Individual', description: 'Cartão de desconto para o titular.', priceCents: individualPrice, dependentPriceCents: 0, maxMembers: 1, features: discounts },
    family: {
      id: randomUUID(),
      name: 'Plano Família',
      description: 'O titular e até 3 dependentes.',
      priceCents: familyPrice,
      dependentPriceCents: 0,
      maxMembers: 4,
      features: ['Titular e até 3 dependentes', ...discounts],
    },
  };
}

function priceList(random: Random): ClinicSeed['services'] {
  // Every clinic offers a general consultation and a blood count; the rest of its list is a draw of the catalogue.
  return SERVICE_CATALOGUE.filter((_, index) => index === 0 || index === 9 || random() < 0.45).map((service) => ({
    id: randomUUID(),
    name: service.name,
    category: service.category,
    // Prices vary by clinic within ±20 %, in whole reais.
    priceCents: Math.round((service.priceCents * between(random, 0.8, 1.2)) / 100) * 100,
  }));
}

export function makeClinics(random: Random, count: number, now: Date): ClinicSeed[] {
  const cnpjs = new Set<string>();
  const clinics: ClinicSeed[] = [];
  for (let rank = 0; rank < count; rank += 1) {
    const place = pick(random, CITIES);
    const name = `${pick(random, CLINIC_PREFIXES)} ${pick(random, CLINIC_WORDS)}${random() < 0.4 ? ` ${place.city}` : ''}`;
    const status = clinicStatus(random, rank);
    const createdAt =
      status === 'trial'
        ? dateBetween(random, new Date(now.getTime() - 20 * DAY_MS), now)
        : dateBetween(random, new Date(now.getTime() - 3 * 365 * DAY_MS), new Date(now.getTime() - (HISTORY_DAYS + 1) * DAY_MS));
    // Half the trials signed up on their own and wait for the platform's approval.
    const awaitingApproval = status === 'trial' && random() < 0.5;
    const trialEndsAt = status === 'trial' ? new Date(createdAt.getTime() + 14 * DAY_MS) : null;
    clinics.push({
      id: randomUUID(),
      name,
      cnpj: uniqueDraw(cnpjs, () => generateCnpj()),
      slug: `${slugOf(name)}-${rank + 1}`,
      status,
      platformPlanName: rank < 10 ? 'Enterprise' : random() < 0.55 ? 'Professional' : 'Starter',
      city: place.city,
      state: place.state,
      latitude: place.latitude + between(random, -0.05, 0.05),
      longitude: place.longitude + between(random, -0.05, 0.05),
      primaryColor: pick(random, COLOURS),
      createdAt,
      approvedAt: awaitingApproval ? null : createdAt,
      trialEndsAt,
      plans: patientPlans(random),
      services: priceList(random),
    });
  }
  return clinics;
}

/** Names and e-mails; `serial` keeps every e-mail unique across the platform. */
function personName(random: Random): { first: string; full: string; surname: string } {
  const first = pick(random, random() < 0.52 ? FEMALE_NAMES : MALE_NAMES);
  const middle = pick(random, SURNAMES);
  const surname = pick(random, SURNAMES);
  return { first, surname, full: middle === surname ? `${first} ${surname}` : `${first} ${middle} ${surname}` };
}

function emailOf(first: string, surname: string, serial: number, domain: string): string {
  return `${slugOf(first)}.${slugOf(surname)}${serial}@${domain}`;
}

/** The clinic's owner and receptionists: one clinic_admin, and one clinic_staff per 800 patients (1 to 6). */
export function makeTeam(random: Random, clinic: ClinicSeed, patients: number, serial: () => number): PersonSeed[] {
  const staffCount = Math.min(6, Math.max(1, Math.round(patients / 800)));
  const domain = `${clinic.slug}.com.br`;
  return Array.from({ length: staffCount + 1 }, (_, index) => {
    const name = personName(random);
    return {
      id: randomUUID(),
      name: name.full,
      email: emailOf(name.first, name.surname, serial(), domain),
      cpf: null,
      phone: null,
      birthDate: null,
      role: index === 0 ? 'clinic_admin' : 'clinic_staff',
      clinicId: clinic.id,
      createdAt: clinic.createdAt,
      lastSignInAt: new Date(clinic.createdAt.getTime() + DAY_MS),
    };
  });
}

function subscriptionStatus(random: Random): SubscriptionStatus {
  let draw = random();
  for (const [status, share] of SUBSCRIPTION_STATUS_SHARES) {
    draw -= share;
    if (draw < 0) return status;
  }
  return 'active';
}

function paymentMethod(random: Random): PaymentMethod {
  const draw = random();
  if (draw < 0.5) return 'pix';
  return draw < 0.7 ? 'boleto' : 'credit_card';
}

export type Patient = { person: PersonSeed; subscription: SubscriptionSeed; dependents: DependentSeed[] };

/**
 * One patient of `clinic` with the subscription they are in now, in one of the five states, its dates consistent
 * with the state: active (paid through a date after `now`), overdue (paid through a date in the last 30 days, a
 * charge late), pending (subscribed in the last 20 days, nothing paid), canceled (by the patient, some time after
 * starting), expired (paid through a date more than 30 days ago).
 */
export function makePatient(random: Random, clinic: ClinicSeed, now: Date, serial: number, cpfs: Set<string>): Patient {
  const name = personName(random);
  const status = subscriptionStatus(random);
  const historyStart = new Date(Math.max(clinic.createdAt.getTime(), now.getTime() - HISTORY_DAYS * DAY_MS));
  const lastJoin = new Date(now.getTime() - 35 * DAY_MS);
  const createdAt =
    status === 'pending' || historyStart >= lastJoin
      ? dateBetween(random, new Date(Math.max(historyStart.getTime(), now.getTime() - 20 * DAY_MS)), now)
      : dateBetween(random, historyStart, lastJoin);
  const family = random() < 0.32;
  const plan = family ? clinic.plans.family : clinic.plans.individual;
  const id = randomUUID();
  const { startedAt, expiresAt, canceledAt, effectiveStatus } = subscriptionDates(random, status, createdAt, now);
  const person: PersonSeed = {
    id,
    name: name.full,
    email: emailOf(name.first, name.surname, serial, pick(random, EMAIL_DOMAINS)),
    cpf: uniqueDraw(cpfs, () => generateCpf()),
    phone: generatePhone('mobile'),
    birthDate: birthDay(random, now, 18, 80),
    role: 'patient',
    clinicId: clinic.id,
    createdAt,
    lastSignInAt: dateBetween(random, createdAt, now),
  };
  const dependents: DependentSeed[] = family
    ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const relationship = pick(random, DEPENDENT_RELATIONSHIPS);
        const child = relationship === 'Filho(a)';
        return {
          id: randomUUID(),
          clinicId: clinic.id,
          holderUserId: id,
          fullName: `${personName(random).first} ${name.surname}`,
          cpf: uniqueDraw(cpfs, () => generateCpf()),
          birthDate: birthDay(random, now, child ? 1 : 20, child ? 17 : 85),
          relationship,
          createdAt,
        };
      })
    : [];
  return {
    person,
    dependents,
    subscription: {
      id: randomUUID(),
      clinicId: clinic.id,
      userId: id,
      planId: plan.id,
      status: effectiveStatus,
      createdAt,
      startedAt,
      expiresAt,
      canceledAt,
      amountCents: plan.priceCents + dependents.length * plan.dependentPriceCents,
      paymentMethod: paymentMethod(random),
    },
  };
}

function subscriptionDates(random: Random, status: SubscriptionStatus, createdAt: Date, now: Date) {
  const none = { startedAt: null, expiresAt: null, canceledAt: null };
  if (status === 'pending') return { ...none, effectiveStatus: status };
  const startedAt = new Date(createdAt.getTime() + Math.round(between(random, 1, 10) * 60_000));
  const elapsed = wholeMonthsBetween(startedAt, now);
  switch (status) {
    case 'active':
      return { startedAt, expiresAt: addMonths(startedAt, elapsed + 1), canceledAt: null, effectiveStatus: status };
    case 'overdue':
      return { startedAt, expiresAt: addMonths(startedAt, Math.max(1, elapsed)), canceledAt: null, effectiveStatus: status };
    case 'canceled': {
      const canceledAt = dateBetween(random, new Date(startedAt.getTime() + 7 * DAY_MS), now);
      return { startedAt, expiresAt: addMonths(startedAt, wholeMonthsBetween(startedAt, canceledAt) + 1), canceledAt, effectiveStatus: status };
    }
    case 'expired': {
      // Paid through at least a month ago; one who joined too recently to have lapsed is still overdue.
      if (elapsed < 2) return { startedAt, expiresAt: addMonths(startedAt, Math.max(1, elapsed)), canceledAt: null, effectiveStatus: 'overdue' as const };
      return { startedAt, expiresAt: addMonths(startedAt, 1 + Math.floor(random() * (elapsed - 1))), canceledAt: null, effectiveStatus: status };
    }
  }
}

/** One card per covered person of a subscription that was ever paid (the holder's first), as payment issues them. */
export function makeCards(patient: Patient, box: SecretBox, numbers: Set<string>): CardSeed[] {
  const { subscription } = patient;
  if (!subscription.startedAt) return [];
  const people = [null, ...patient.dependents.map((dependent) => dependent.id)];
  return people.map((dependentId) => ({
    id: randomUUID(),
    clinicId: subscription.clinicId,
    subscriptionId: subscription.id,
    holderUserId: subscription.userId,
    dependentId,
    number: uniqueDraw(numbers, generateCardNumber),
    secretEncrypted: box.seal(newCardSecret()),
    issuedAt: subscription.startedAt ?? subscription.createdAt,
  }));
}
