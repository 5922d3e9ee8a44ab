/** Business constants from the specification §9. */

import type { PlanEntitlements } from './contracts/plans.ts';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const FULL_NAME_MIN_LENGTH = 3;
/** A person's name is quoted in e-mails and pages: long enough for any real name, too short to carry a letter. */
export const FULL_NAME_MAX_LENGTH = 120;

export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
/** 7 days. */
export const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 604_800;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const PLATFORM_FEE_PERCENT = 10;
export const TRIAL_DAYS = 14;
export const SESSION_TIMEOUT_MINUTES_DEFAULT = 30;
export const BACKUP_RETENTION_DAYS_DEFAULT = 30;
export const BOLETO_DUE_DAYS = 5;
/**
 * An upgrade's difference below this is not charged (ADR 028): the smallest charge a payment provider takes by Pix or
 * boleto (Asaas: R$ 5,00), and less than the fees of charging it.
 */
export const PLAN_CHANGE_MIN_CHARGE_CENTS = 500;

/** Default discounts of a patient plan, in percent (DESIGN.md §2). */
export const DEFAULT_DISCOUNTS = { consultas: 30, exames: 25, procedimentos: 20 } as const;

export const DEMO_PASSWORD = 'demo123';
export const DEMO_ACCOUNTS = {
  admin: 'admin@carteirinha.dev',
  clinicAdmin: 'clinica@carteirinha.dev',
  clinicStaff: 'atendente@carteirinha.dev',
  patient: 'paciente@carteirinha.dev',
} as const;
export const DEMO_CLINIC_SLUG = 'demo';
/** The query marker the e-mail confirmation link lands with (`/?email-confirmado=1`), so the site can say it worked. */
export const EMAIL_CONFIRMED_PARAM = 'email-confirmado';
/** The query marker the landing page's pricing card carries through sign-up into onboarding (`?plano=<id>`). */
export const PLAN_PARAM = 'plano';
/** The platform's own teal: a clinic's colour until its admin picks one. */
export const DEFAULT_PRIMARY_COLOR = '#0d9488';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/**
 * The calendar days a date filter accepts (yyyy-MM-dd, both included). Nothing on the platform predates 2000 or is
 * planned past 2100; days near year 1 or 9999 are typos or probes, and they overflow the database's timestamps
 * once a time zone is applied (issue 12, item 13).
 */
export const CALENDAR_DAY_MIN = '2000-01-01';
export const CALENDAR_DAY_MAX = '2100-12-31';

/** A plan the platform sells to clinics, as the landing page shows it and as the database is first seeded. */
export type PlatformPlan = {
  name: string;
  /** Monthly price in cents; null for "sob consulta" (Enterprise). */
  priceCents: number | null;
  description: string;
  /** null = unlimited. */
  maxPatients: number | null;
  /** Partner clinics; null = unlimited. */
  maxClinics: number | null;
  features: readonly string[];
  popular: boolean;
  entitlements: PlanEntitlements;
};

/** The three platform plans (specification §9, "Landing-page plans"). */
export const PLATFORM_PLANS: readonly PlatformPlan[] = [
  {
    name: 'Starter',
    priceCents: 29_700,
    description: 'Para clínicas que estão começando o seu programa de cartão.',
    maxPatients: 100,
    maxClinics: 1,
    features: ['Até 100 pacientes', '1 clínica parceira', 'Domínio personalizado', 'Suporte por email'],
    popular: false,
    entitlements: { customDomain: true, fullWhitelabel: false, mobileApp: false, advancedReports: false, supportLevel: 'email', slaUptimePercent: null },
  },
  {
    name: 'Professional',
    priceCents: 69_700,
    description: 'Para clínicas em crescimento que querem a sua marca em tudo.',
    maxPatients: 500,
    maxClinics: 5,
    features: ['Até 500 pacientes', '5 clínicas parceiras', 'Whitelabel completo', 'Suporte prioritário', 'App mobile incluído'],
    popular: true,
    entitlements: { customDomain: true, fullWhitelabel: true, mobileApp: true, advancedReports: true, supportLevel: 'priority', slaUptimePercent: null },
  },
  {
    name: 'Enterprise',
    priceCents: null,
    description: 'Para redes de clínicas com necessidades sob medida.',
    maxPatients: null,
    maxClinics: null,
    features: ['Pacientes ilimitados', 'Parceiros ilimitados', 'SLA garantido', 'Gerente dedicado', 'Customizações'],
    popular: false,
    entitlements: { customDomain: true, fullWhitelabel: true, mobileApp: true, advancedReports: true, supportLevel: 'dedicated', slaUptimePercent: 99.9 },
  },
];
