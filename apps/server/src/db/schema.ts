import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { ROLES } from '@carteirinha/shared/roles';
import { CLINIC_STATUSES, type OpeningHours } from '@carteirinha/shared/contracts/clinics';
import { BILLING_CYCLES } from '@carteirinha/shared/contracts/subscription-plans';
import { SUBSCRIPTION_STATUSES } from '@carteirinha/shared/contracts/subscriptions';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import { SUPPORT_LEVELS } from '@carteirinha/shared/contracts/plans';
import { SERVICE_CATEGORIES } from '@carteirinha/shared/contracts/services';
import { NETWORK_CATEGORIES } from '@carteirinha/shared/contracts/network';
import { VISIT_STATUSES } from '@carteirinha/shared/contracts/visits';
import { CARD_LOOKUP_METHODS, CARD_VALIDATION_RESULTS } from '@carteirinha/shared/contracts/cards';
import { PAYOUT_LINE_KINDS, PAYOUT_STATUSES } from '@carteirinha/shared/contracts/payouts';
import { PLAN_CHANGE_KINDS, PLAN_CHANGE_STATUSES } from '@carteirinha/shared/contracts/plan-changes';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

// ---------------------------------------------------------------------------------------------------------------
// Authentication tables, owned by better-auth (field names are the library's; columns are ours, snake_case).
// ---------------------------------------------------------------------------------------------------------------

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    /** better-auth's two-factor plugin: true once a TOTP factor was verified. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /** Set by 'Desativar' in /admin/usuarios: the account can no longer sign in, and no site enrols it again. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** The last sign-in that completed (second factor included); sessions come and go, this stays. */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /**
     * The e-mail and the name folded (fold_text: lower case, no accents), kept by PostgreSQL on every write: the admin
     * users search matches them through trigram indexes, and checking a candidate row then reads the folded text
     * instead of folding it again (translate() on UTF-8 was 13 µs a row, bench/RESULTS.md).
     */
    emailFolded: text('email_folded').generatedAlwaysAs(sql`fold_text(email)`),
    nameFolded: text('name_folded').generatedAlwaysAs(sql`fold_text(name)`),
    ...timestamps,
  },
  // The users report walks the table in (created_at, id) keyset batches.
  (t) => [index('users_created_id_idx').on(t.createdAt, t.id)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Ours, not better-auth's: the inactivity timeout of staff sessions reads it (admin Configurações). */
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    /** Ours: the second factor was checked for this session (not merely enabled for the user). */
    twoFactorVerified: boolean('two_factor_verified').notNull().default(false),
    /**
     * Ours: the passkey that opened this session or passed its second factor. Removing the passkey ends the session
     * with it (ADR 029), in the same statement, by the foreign key.
     */
    passkeyId: uuid('passkey_id').references((): AnyPgColumn => passkeys.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_passkey_id_idx').on(t.passkeyId)],
);

/**
 * WebAuthn credentials (passkeys and security keys), ours rather than a better-auth plugin's (ADR 029). Each is bound
 * to the relying party it was made for: the host name of the site it was registered on, a clinic's or the platform's.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The credential id the authenticator chose, base64url, as browsers send it back. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The signature counter of the last assertion accepted (0 for authenticators that keep none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** The relying-party id (host name) the credential was made for; it signs in there only. */
    rpId: text('rp_id').notNull(),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** 'multiDevice' for a synced passkey, 'singleDevice' for a key bound to one device (a security key). */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    aaguid: text('aaguid'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('passkeys_user_id_idx').on(t.userId)],
);

/**
 * A WebAuthn ceremony's challenge, waiting for the browser's answer. It is found by its value (the answer's
 * clientDataJSON carries it) and deleted as it is used, so each one serves once.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    /** 'registration', 'sign-in' or 'second-factor'. */
    ceremony: text('ceremony').notNull(),
    /** Who the ceremony is for: the registering user, the user owing a second factor; null for a sign-in. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    rpId: text('rp_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * Captcha challenges already used (ADR 029): a solution is accepted once. Kept until the challenge would have expired
 * anyway, after which its signature no longer passes and the row is only clutter.
 */
/**
 * The request-rate limits' counters (@fastify/rate-limit's store, lib/rate-limit-store.ts): in the database, so that
 * every server process counts the same hits (issue 28). One row per route and address, its window's end beside it.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_window_ends_at_idx').on(t.windowEndsAt)],
);

export const usedCaptchaChallenges = pgTable(
  'used_captcha_challenges',
  {
    nonce: text('nonce').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_captcha_challenges_expires_at_idx').on(t.expiresAt)],
);

/** TOTP secrets and backup codes of better-auth's two-factor plugin (both encrypted by the library). */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('two_factors_user_id_idx').on(t.userId), index('two_factors_secret_idx').on(t.secret)],
);

/**
 * TOTP codes already accepted, for as long as they could be accepted again (security checklist 14). The primary key
 * makes the claim atomic: two requests with one code cannot both insert.
 */
export const usedTotpCodes = pgTable(
  'used_totp_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('accounts_user_id_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/** Failed sign-ins per account, so the per-account limit holds across server processes. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    ipAddress: text('ip_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The captcha asks an address that failed recently (ADR 029): counted by address, across accounts.
  (t) => [index('sign_in_failures_email_created_idx').on(t.email, t.createdAt), index('sign_in_failures_ip_created_idx').on(t.ipAddress, t.createdAt)],
);

/**
 * Addresses an account completed a sign-in from: its failures there are the owner's own typos, and the account-wide
 * ceiling that a distributed attack trips does not stop the owner there (ADR 007).
 */
export const signInKnownAddresses = pgTable(
  'sign_in_known_addresses',
  {
    email: text('email').notNull(),
    ipAddress: text('ip_address').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.ipAddress] })],
);

/** When the owner was last told that the account reached its ceiling of failed sign-ins: once per window. */
export const signInCeilingNotices = pgTable('sign_in_ceiling_notices', {
  email: text('email').primaryKey(),
  notifiedAt: timestamp('notified_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------------------------------
// Platform and tenants.
// ---------------------------------------------------------------------------------------------------------------

export const appRole = pgEnum('app_role', ROLES);
export const clinicStatus = pgEnum('clinic_status', CLINIC_STATUSES);
export const billingCycle = pgEnum('billing_cycle', BILLING_CYCLES);
export const subscriptionStatus = pgEnum('subscription_status', SUBSCRIPTION_STATUSES);
export const paymentMethod = pgEnum('payment_method', PAYMENT_METHODS);
export const supportLevel = pgEnum('support_level', SUPPORT_LEVELS);
export const paymentStatus = pgEnum('payment_status', PAYMENT_STATUSES);
export const serviceCategory = pgEnum('service_category', SERVICE_CATEGORIES);
export const networkCategory = pgEnum('network_category', NETWORK_CATEGORIES);
export const visitStatus = pgEnum('visit_status', VISIT_STATUSES);
export const cardLookupMethod = pgEnum('card_lookup_method', CARD_LOOKUP_METHODS);
export const cardValidationResult = pgEnum('card_validation_result', CARD_VALIDATION_RESULTS);
export const payoutStatus = pgEnum('payout_status', PAYOUT_STATUSES);
export const payoutLineKind = pgEnum('payout_line_kind', PAYOUT_LINE_KINDS);

/** What the platform sells to clinics (Starter, Professional, Enterprise). A null price is "sob consulta". */
export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  priceCents: integer('price_cents'),
  description: text('description'),
  maxPatients: integer('max_patients'),
  maxClinics: integer('max_clinics'),
  features: text('features').array().notNull().default(sql`'{}'::text[]`),
  isActive: boolean('is_active').notNull().default(true),
  popular: boolean('popular').notNull().default(false),
  // What the plan includes, as the comparison table of specification §9 shows it.
  customDomain: boolean('custom_domain').notNull().default(true),
  fullWhitelabel: boolean('full_whitelabel').notNull().default(false),
  mobileApp: boolean('mobile_app').notNull().default(false),
  advancedReports: boolean('advanced_reports').notNull().default(false),
  supportLevel: supportLevel('support_level').notNull().default('email'),
  /** Guaranteed monthly uptime in percent (99.9); null when the plan guarantees none. */
  slaUptimePercent: doublePrecision('sla_uptime_percent'),
  ...timestamps,
});

export const clinics = pgTable(
  'clinics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** 14 characters, digits or (from July 2026) uppercase letters, no punctuation. */
    cnpj: varchar('cnpj', { length: 14 }).notNull().unique(),
    slug: text('slug').notNull().unique(),
    domain: text('domain').unique(),
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'restrict' }),
    status: clinicStatus('status').notNull().default('active'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /**
     * When the platform accepted the clinic: at creation for clinics an admin creates, at 'Aprovar Cadastro' for
     * those that signed up on their own (null until then: the sign-ups awaiting approval).
     */
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    displayName: text('display_name'),
    logoUrl: text('logo_url'),
    primaryColor: varchar('primary_color', { length: 7 }),
    city: text('city'),
    state: varchar('state', { length: 2 }),
    /** Configurações (issue 25): how patients reach the clinic, shown on its site. */
    phone: text('phone'),
    contactEmail: text('contact_email'),
    /** CEP as 8 digits; the street address in parts, as the Correios write it. */
    postalCode: varchar('postal_code', { length: 8 }),
    street: text('street'),
    streetNumber: text('street_number'),
    addressComplement: text('address_complement'),
    district: text('district'),
    /** Opening hours shown on the clinic's site: Monday to Friday and Saturday, each open–close or closed (null). */
    openingHours: jsonb('opening_hours').$type<OpeningHours>(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    ...timestamps,
  },
  // The list and the clinics report walk (created_at, id); fold_text() search indexes are in migration 0008.
  (t) => [index('clinics_created_id_idx').on(t.createdAt, t.id), index('clinics_status_idx').on(t.status)],
);

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    cpf: varchar('cpf', { length: 11 }),
    phone: text('phone'),
    birthDate: date('birth_date'),
    avatarUrl: text('avatar_url'),
    ...timestamps,
  },
  // Card validation by a holder's CPF (ADR 014) reads profiles by CPF across the platform.
  (t) => [index('profiles_cpf_idx').on(t.cpf)],
);

/** The single source of authorization: one role per user; every role but admin belongs to one clinic. */
export const userRoles = pgTable(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: appRole('role').notNull(),
    clinicId: uuid('clinic_id').references(() => clinics.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_roles_user_id_key').on(t.userId),
    index('user_roles_clinic_role_idx').on(t.clinicId, t.role),
    check('user_roles_clinic_required', sql`${t.role} = 'admin' OR ${t.clinicId} IS NOT NULL`),
  ],
);

/** A clinic's plans for its patients. Discounts in whole percent (DESIGN.md §2: defaults 30 / 25 / 20). */
export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The holder's price per cycle; each covered dependent adds `dependent_price_cents`. */
    priceCents: integer('price_cents').notNull(),
    dependentPriceCents: integer('dependent_price_cents').notNull().default(0),
    /** Charged once, with the first charge; 0 = none. */
    adhesionFeeCents: integer('adhesion_fee_cents').notNull().default(0),
    billingCycle: billingCycle('billing_cycle').notNull().default('monthly'),
    features: text('features').array().notNull().default(sql`'{}'::text[]`),
    maxMembers: integer('max_members').notNull().default(1),
    /** Carência: days after the first payment before the discounts apply; 0 = at once. */
    waitingDays: integer('waiting_days').notNull().default(0),
    discountConsultas: integer('discount_consultas').notNull().default(30),
    discountExames: integer('discount_exames').notNull().default(25),
    discountProcedimentos: integer('discount_procedimentos').notNull().default(20),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * The starter plan every new clinic gets is not on sale until its owner has looked at its price and saved it once
     * (issue 25): true until then. Plans the clinic's admin creates are reviewed as they are saved.
     */
    awaitingReview: boolean('awaiting_review').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('subscription_plans_clinic_idx').on(t.clinicId, t.isActive, t.priceCents),
    check('subscription_plans_price_nonnegative', sql`${t.priceCents} >= 0`),
    check('subscription_plans_max_members_positive', sql`${t.maxMembers} >= 1`),
    check('subscription_plans_fees_nonnegative', sql`${t.dependentPriceCents} >= 0 and ${t.adhesionFeeCents} >= 0 and ${t.waitingDays} >= 0`),
  ],
);

/**
 * A company that pays for its employees' memberships directly to the clinic (issue 26, 'Importar CSV' with 'A empresa
 * paga'): the clinic records it; the platform charges nothing. Each employee's subscription points at it and lasts
 * until `valid_until` (a São Paulo day, inclusive).
 */
export const companyMemberships = pgTable(
  'company_memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    companyName: text('company_name').notNull(),
    /** Digits only, check digits validated. */
    cnpj: varchar('cnpj', { length: 14 }).notNull(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    validUntil: date('valid_until').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('company_memberships_clinic_idx').on(t.clinicId, t.createdAt)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    status: subscriptionStatus('status').notNull().default('pending'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** Paid through: each settled charge moves it by one cycle. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** When the plan's carência ends and the discounts apply (null until the first payment). */
    benefitsStartAt: timestamp('benefits_start_at', { withTimezone: true }),
    /** The price of each cycle when contracted (holder + dependents), kept when the plan's price changes later. */
    amountCents: integer('amount_cents'),
    paymentMethod: paymentMethod('payment_method'),
    /** The provider that bills it ('local' or 'asaas') and its ids there. */
    provider: text('provider'),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    cancelReason: text('cancel_reason'),
    /**
     * Set when a company pays for the membership outside the platform (issue 26, 'Importar CSV'): no charge is ever
     * made, and the benefits end at `expires_at` exactly (the company's valid-until date), with no grace.
     */
    companyMembershipId: uuid('company_membership_id').references(() => companyMemberships.id, { onDelete: 'restrict' }),
    /**
     * The paid-through date the patient was last told is coming to an end (issue 29): claimed in the transaction that
     * writes the notice's job, so each end is told once; a later end (renewed, then stopped again) is told again.
     */
    endingNoticeFor: timestamp('ending_notice_for', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('subscriptions_user_created_idx').on(t.userId, t.createdAt),
    index('subscriptions_clinic_status_idx').on(t.clinicId, t.status),
    index('subscriptions_status_expires_idx').on(t.status, t.expiresAt),
    uniqueIndex('subscriptions_provider_key').on(t.provider, t.providerSubscriptionId),
  ],
);

/**
 * Each charge of a patient's subscription (DESIGN.md §2). Created through a payment provider and changed only by its
 * verified webhooks; a clinic's revenue is the sum of its paid charges.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'restrict' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'restrict' }),
    /** 'local' (the embedded provider) or 'asaas'; with `providerPaymentId`, the charge's id at the provider. */
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    method: paymentMethod('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    dueDate: date('due_date').notNull(),
    status: paymentStatus('status').notNull().default('pending'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Pix "copia e cola" (BR Code) and its QR code as a base64 PNG. */
    pixPayload: text('pix_payload'),
    pixQrCodePng: text('pix_qr_code_png'),
    boletoUrl: text('boleto_url'),
    /** The boleto's linha digitável. */
    boletoDigitableLine: text('boleto_digitable_line'),
    /** The provider's page for the charge (Asaas invoiceUrl): pay by card, see the receipt. */
    invoiceUrl: text('invoice_url'),
    /** Card charges: what the patient may see of the card (brand and last four digits), never the number. */
    cardSummary: text('card_summary'),
    /** The provider's own status word, as last heard (PENDING, RECEIVED, …). */
    providerStatus: text('provider_status'),
    /** Of the adhesion fee within `amount_cents`, when this first charge carries one. */
    adhesionFeeCents: integer('adhesion_fee_cents').notNull().default(0),
    /** The cycle this charge pays for: settling it makes the subscription paid through `period_end`. */
    periodStart: date('period_start'),
    periodEnd: date('period_end'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** What was given back when less than the whole charge (the 7-day withdrawal keeps the discounts used); null: all. */
    refundedCents: integer('refunded_cents'),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /**
     * A settlement that was not applied: the provider reported less (or an unknown amount) than the charge is for.
     * The charge stays open, `received_cents` keeps what was reported, and the platform admin sees it as an alert.
     */
    heldAt: timestamp('held_at', { withTimezone: true }),
    receivedCents: integer('received_cents'),
    /** Reminders sent for this charge (before and on the due date), so each is sent once. */
    reminderBeforeSentAt: timestamp('reminder_before_sent_at', { withTimezone: true }),
    reminderDueSentAt: timestamp('reminder_due_sent_at', { withTimezone: true }),
    /**
     * Set on the one charge an upgrade of plan makes (ADR 028): it pays the difference over the rest of the period
     * already paid, buys no cycle, and settling it puts the new plan in effect.
     */
    planChangeId: uuid('plan_change_id').references((): AnyPgColumn => planChanges.id, { onDelete: 'restrict' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_provider_payment_key').on(t.provider, t.providerPaymentId),
    // With the amount in the index, a clinic's revenue (the admin list's 'Receita', one sum per clinic shown) is an
    // index-only scan instead of a heap read per charge: 20 000 charges for the largest clinic at 1M visits.
    index('payments_clinic_status_amount_idx').on(t.clinicId, t.status, t.amountCents),
    index('payments_subscription_idx').on(t.subscriptionId, t.createdAt),
    index('payments_status_due_idx').on(t.status, t.dueDate),
    index('payments_held_idx').on(t.heldAt).where(sql`${t.heldAt} is not null`),
    // A month's payout reads a clinic's charges paid, and those taken back, in the month (issue 26).
    index('payments_clinic_paid_idx').on(t.clinicId, t.paidAt).where(sql`${t.paidAt} is not null`),
    index('payments_clinic_refunded_idx').on(t.clinicId, t.refundedAt).where(sql`${t.refundedAt} is not null`),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    uniqueIndex('payments_plan_change_key').on(t.planChangeId).where(sql`${t.planChangeId} is not null`),
  ],
);

/**
 * A change of plan the holder asked for (issue 27, ADR 028). An upgrade takes effect when its charge (payments with
 * this plan_change_id) is paid; a downgrade at `effective_at`, the paid-through date when it was asked. One pending
 * change per subscription at a time; the rows stay as the record of what was asked and when.
 */
export const planChanges = pgTable(
  'plan_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    fromPlanId: uuid('from_plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    toPlanId: uuid('to_plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: PLAN_CHANGE_KINDS }).notNull(),
    status: text('status', { enum: PLAN_CHANGE_STATUSES }).notNull().default('pending'),
    /** The price of each cycle before, and on the new plan (holder and the dependents kept). */
    fromAmountCents: integer('from_amount_cents').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** Upgrade: the difference over the days left of the paid period; 0 for a downgrade. */
    chargeCents: integer('charge_cents').notNull().default(0),
    /** The dependents who stay covered on the new plan (the others are taken off when it takes effect). */
    keepDependentIds: uuid('keep_dependent_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Downgrade: when it takes effect. */
    effectiveAt: timestamp('effective_at', { withTimezone: true }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('plan_changes_one_pending_key').on(t.subscriptionId).where(sql`${t.status} = 'pending'`),
    index('plan_changes_due_idx').on(t.effectiveAt).where(sql`${t.status} = 'pending' and ${t.kind} = 'downgrade'`),
  ],
);

/**
 * What each clinic paid the platform over time: one row per stretch of time with the same status, plan and plan
 * price, written by triggers on clinics and plans (migration 0006), so that every path that changes a clinic is
 * recorded. The MRR at any instant, and so its change against the previous month, is read from here.
 */
export const clinicPlanPeriods = pgTable(
  'clinic_plan_periods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Not a foreign key: the history outlives a deleted clinic. */
    clinicId: uuid('clinic_id').notNull(),
    planId: uuid('plan_id'),
    status: clinicStatus('status').notNull(),
    /** The plan's monthly price during the period; null for no plan or a plan "sob consulta". */
    priceCents: integer('price_cents'),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    /** null while the period is the clinic's current one. */
    validTo: timestamp('valid_to', { withTimezone: true }),
  },
  (t) => [
    index('clinic_plan_periods_range_idx').on(t.validFrom, t.validTo),
    uniqueIndex('clinic_plan_periods_open_key').on(t.clinicId).where(sql`${t.validTo} is null`),
  ],
);

/** Every e-mail the platform produced. Without SMTP this is the development outbox an admin can read. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    transport: text('transport', { enum: ['outbox', 'smtp'] }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_outbox_created_idx').on(t.createdAt), index('email_outbox_to_idx').on(t.to)],
);

/** Who did what to which record, and when (DESIGN.md §2). Append-only: the application never updates or deletes. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: uuid('entity_id'),
    /** Not a foreign key: the trail outlives the clinic. */
    clinicId: uuid('clinic_id'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId), index('audit_log_created_idx').on(t.createdAt)],
);

/**
 * The admin Configurações screen (DESIGN.md §2): one row, id 1, created with the defaults on first read. Each
 * setting is enforced where it has meaning: sessions, two-factor, SMTP, backups.
 */
export const platformSettings = pgTable(
  'platform_settings',
  {
    id: integer('id').primaryKey().default(1),
    platformName: text('platform_name').notNull().default('Carteirinha'),
    supportEmail: text('support_email').notNull().default('suporte@carteirinha.com.br'),
    phone: text('phone'),
    notifyNewClinics: boolean('notify_new_clinics').notNull().default(true),
    notifyPendingPayments: boolean('notify_pending_payments').notNull().default(true),
    notifyAutomaticReports: boolean('notify_automatic_reports').notNull().default(true),
    notifyCancellations: boolean('notify_cancellations').notNull().default(false),
    requireAdminTwoFactor: boolean('require_admin_two_factor').notNull().default(true),
    googleLogin: boolean('google_login').notNull().default(true),
    allowMultipleSessions: boolean('allow_multiple_sessions').notNull().default(false),
    sessionTimeoutMinutes: integer('session_timeout_minutes').notNull().default(30),
    /** The shortest password a person may set; the specification's 6 is the floor (ADR 007). */
    passwordMinLength: integer('password_min_length').notNull().default(6),
    smtpHost: text('smtp_host'),
    smtpPort: integer('smtp_port').notNull().default(587),
    smtpUser: text('smtp_user'),
    /** AES-256-GCM with a key derived from the auth secret: a database dump alone does not reveal it. */
    smtpPasswordEncrypted: text('smtp_password_encrypted'),
    backupDailyEnabled: boolean('backup_daily_enabled').notNull().default(true),
    backupRetentionDays: integer('backup_retention_days').notNull().default(30),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [check('platform_settings_singleton', sql`${t.id} = 1`)],
);

// ---------------------------------------------------------------------------------------------------------------
// Payments (issue 14): per-clinic billing settings, contract terms, provider events, idempotent writes, jobs.
// ---------------------------------------------------------------------------------------------------------------

/** A clinic's own settings that the platform enforces: delinquency grace and its merchant account at the provider. */
export const clinicSettings = pgTable(
  'clinic_settings',
  {
    clinicId: uuid('clinic_id')
      .primaryKey()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    /** Days a charge may stay overdue before the cards stop validating (default 5). */
    graceDays: integer('grace_days').notNull().default(5),
    /** The clinic's Asaas subaccount key, sealed (secret box), and its wallet id; null until the clinic connects one. */
    asaasApiKeyEncrypted: text('asaas_api_key_encrypted'),
    asaasWalletId: text('asaas_wallet_id'),
    /**
     * The webhook registered at the clinic's own Asaas account when it connected (ADR 013): its id there, the token
     * Asaas sends with each event (sealed), and when it was registered (the shared token's transition runs from it).
     */
    asaasWebhookId: text('asaas_webhook_id'),
    asaasWebhookTokenEncrypted: text('asaas_webhook_token_encrypted'),
    asaasWebhookRegisteredAt: timestamp('asaas_webhook_registered_at', { withTimezone: true }),
    /** Configurações' notification switches: each turns one e-mail to the clinic's patients off (issue 25). */
    notifyPaymentConfirmed: boolean('notify_payment_confirmed').notNull().default(true),
    notifyReminderBefore: boolean('notify_reminder_before').notNull().default(true),
    notifyReminderDue: boolean('notify_reminder_due').notNull().default(true),
    notifyOverdue: boolean('notify_overdue').notNull().default(true),
    ...timestamps,
  },
  (t) => [check('clinic_settings_grace_days_range', sql`${t.graceDays} between 0 and 60`)],
);

/** Each clinic's contract terms, versioned: the newest is what checkout shows; old versions stay for the record. */
export const contractTerms = pgTable(
  'contract_terms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contract_terms_clinic_version_key').on(t.clinicId, t.version)],
);

/** Proof that a patient accepted a version of the terms at checkout: when and from which address. */
export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    termsId: uuid('terms_id')
      .notNull()
      .references(() => contractTerms.id, { onDelete: 'restrict' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('terms_acceptances_user_idx').on(t.userId, t.acceptedAt)],
);

/**
 * Every event a payment provider delivered, stored before it is processed and unique by the provider's event id:
 * at-least-once delivery is safe (DESIGN.md §2). A platform table: the clinic is found through the charge.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The clinic whose own webhook URL the event came to; null: the shared URL (or ours: simulation, reconciliation). */
    clinicId: uuid('clinic_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Its processing failed on the job's last attempt: the platform admin is alerted until it is processed. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_events_provider_event_key').on(t.provider, t.eventId),
    index('webhook_events_unprocessed_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`),
    index('webhook_events_failed_idx').on(t.failedAt).where(sql`${t.failedAt} is not null and ${t.processedAt} is null`),
  ],
);

/**
 * The answer to a create request, kept under its Idempotency-Key for a day: a retried request (a lost answer, a
 * double tap) gets the first answer back instead of a second charge.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 128 }).notNull(),
    /** Method and route, so one key cannot replay another endpoint's answer. */
    scope: text('scope').notNull(),
    /** SHA-256 of the body: the same key with a different body is refused. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Durable background work that runs once across server processes (ADR 012): a worker claims due rows with
 * FOR UPDATE SKIP LOCKED and a lease; a failed job is retried later with back-off; `singleton_key` keeps one job per
 * key in a queue, pending or finished, until the finished row is pruned (so keys carry the day or the event id: one
 * reconciliation per day, one processing per webhook event). The runner: modules/jobs/runner.ts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    singletonKey: text('singleton_key'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jobs_queue_singleton_key').on(t.queue, t.singletonKey),
    index('jobs_due_idx').on(t.runAt).where(sql`${t.completedAt} is null and ${t.failedAt} is null`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Cards, validation and visits (issue 15).
// ---------------------------------------------------------------------------------------------------------------

/** People covered by a holder's subscription besides the holder (count ≤ max_members − 1). */
export const dependents = pgTable(
  'dependents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    holderUserId: uuid('holder_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    cpf: varchar('cpf', { length: 11 }),
    birthDate: date('birth_date'),
    relationship: text('relationship'),
    /** When the holder took the dependent off the subscription: not covered, their card suspended; null while covered. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    ...timestamps,
  },
  // By CPF within the clinic: card validation finds a dependent's card by the dependent's CPF (ADR 014).
  (t) => [index('dependents_holder_idx').on(t.holderUserId), index('dependents_clinic_cpf_idx').on(t.clinicId, t.cpf)],
);

/**
 * One card per covered person per clinic, for life (DESIGN.md §2): issued when a subscription covering the person first
 * becomes active, and pointed at each later subscription, whose standing decides whether it validates. The printed
 * number has a check digit; the secret (sealed) derives the rotating QR token, on the server and later on the device.
 */
export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    /** The person's newest subscription that covers them: its standing is the card's. */
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    holderUserId: uuid('holder_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** null for the holder's own card. */
    dependentId: uuid('dependent_id').references(() => dependents.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 16 }).notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('cards_number_key').on(t.number),
    index('cards_subscription_idx').on(t.subscriptionId),
    index('cards_holder_idx').on(t.holderUserId),
    // A person keeps one card (one printed number) per clinic for life; it follows their newest subscription.
    uniqueIndex('cards_person_key').on(t.clinicId, t.holderUserId, sql`coalesce(${t.dependentId}, '00000000-0000-0000-0000-000000000000'::uuid)`),
  ],
);

/** Every validation attempt: where, by whom, which card, what answer (DESIGN.md §2: never deleted). */
export const cardValidations = pgTable(
  'card_validations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    cardId: uuid('card_id').references(() => cards.id, { onDelete: 'set null' }),
    method: cardLookupMethod('method').notNull(),
    result: cardValidationResult('result').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The enrolled device whose offline code was shown (issue 29); null for the card's own code, a number, a CPF. */
    deviceId: uuid('device_id').references((): AnyPgColumn => cardDevices.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('card_validations_clinic_created_idx').on(t.clinicId, t.createdAt),
    index('card_validations_card_idx').on(t.cardId),
    // A user's attempts (the foreign key's ON DELETE SET NULL when an account is deleted, the access log).
    index('card_validations_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * A patient's phone or computer enrolled for the offline card (ADR 014 amendment, issue 29): it holds a secret of its
 * own (sealed here, a non-extractable WebCrypto key there) from which it derives its cards' QR codes without a
 * network. At most CARD_DEVICES_MAX active per patient per clinic; `slot` (1…max) is carried in the QR so the
 * validation finds the device in one indexed lookup. Revoked devices are kept (validations point at them).
 */
export const cardDevices = pgTable(
  'card_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slot: smallint('slot').notNull(),
    name: text('name').notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The last time the device asked the server while online: its offline codes count 72 h from here. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
    /** The last validation at a desk of a code this device showed. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('card_devices_active_slot_key').on(t.clinicId, t.userId, t.slot).where(sql`${t.revokedAt} is null`),
    index('card_devices_user_idx').on(t.userId),
  ],
);

/** A clinic's price list (DESIGN.md §2). The discount comes from the patient's plan for the service's category. */
export const services = pgTable(
  'services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: serviceCategory('category').notNull(),
    priceCents: integer('price_cents').notNull(),
    /** The clinic's own discount for this service (whole percent); when set it wins over the plans' category discount. */
    discountPercent: integer('discount_percent'),
    /** false once archived: a service visits used stays for their record, off the price list. */
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('services_clinic_idx').on(t.clinicId, t.isActive, t.name),
    check('services_price_nonnegative', sql`${t.priceCents} >= 0`),
    check('services_discount_percent_range', sql`${t.discountPercent} is null or ${t.discountPercent} between 0 and 100`),
  ],
);

/**
 * The clinic's public price table over time (issue 25): for each service, one row per stretch of time with the same
 * full price (`plan_id` null) and, for each plan on sale, the same card price. Written by the services module with
 * the clock of the change, so anyone can read what the card price was on a given day.
 */
export const servicePriceHistory = pgTable(
  'service_price_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    /** null on the row of the full price; else the plan whose card price this is. */
    planId: uuid('plan_id').references(() => subscriptionPlans.id, { onDelete: 'cascade' }),
    /** As they read then: a name changed later does not rewrite what the table said. */
    serviceName: text('service_name').notNull(),
    planName: text('plan_name'),
    category: serviceCategory('category').notNull(),
    fullPriceCents: integer('full_price_cents').notNull(),
    discountPercent: integer('discount_percent'),
    cardPriceCents: integer('card_price_cents'),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    /** null while the row is the current price. */
    validTo: timestamp('valid_to', { withTimezone: true }),
  },
  (t) => [
    index('service_price_history_clinic_idx').on(t.clinicId, t.validFrom),
    index('service_price_history_service_idx').on(t.serviceId, t.validFrom),
    uniqueIndex('service_price_history_open_key')
      .on(t.serviceId, sql`coalesce(${t.planId}, '00000000-0000-0000-0000-000000000000'::uuid)`)
      .where(sql`${t.validTo} is null`),
  ],
);

/** A service given to a card holder (atendimento): what it cost, the discount applied and what was paid. */
export const visits = pgTable(
  'visits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'restrict' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'restrict' }),
    patientUserId: uuid('patient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dependentId: uuid('dependent_id').references(() => dependents.id, { onDelete: 'set null' }),
    serviceId: uuid('service_id').references(() => services.id, { onDelete: 'set null' }),
    serviceName: text('service_name').notNull(),
    category: serviceCategory('category').notNull(),
    originalCents: integer('original_cents').notNull(),
    discountPercent: integer('discount_percent').notNull(),
    discountCents: integer('discount_cents').notNull(),
    finalCents: integer('final_cents').notNull(),
    status: visitStatus('status').notNull().default('concluido'),
    /** When it was cancelled (status 'cancelado', with its reason): it gave no discount, so withdrawal does not count it. */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /** When the visit happens: now for a walk-in, the appointment's time for one booked ahead. */
    performedAt: timestamp('performed_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was booked ahead (the patient's next appointment); null for a walk-in. */
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    /** Who attends the patient, as the desk typed it. */
    professional: text('professional'),
    /** Why a visit was cancelled (required to cancel). */
    cancelReason: text('cancel_reason'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    statusChangedBy: uuid('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    // Keyset pages of Atendimentos and 'Ver Histórico' (lib/keyset.ts): the clinic's (or card's) visits newest first,
    // with the id breaking ties, read as one index range at any depth.
    index('visits_clinic_performed_id_idx').on(t.clinicId, t.performedAt, t.id),
    // Atendimentos' status filter and the dashboard's figures of concluded visits read one status of one clinic by time.
    index('visits_clinic_status_performed_idx').on(t.clinicId, t.status, t.performedAt),
    index('visits_patient_performed_idx').on(t.patientUserId, t.performedAt),
    index('visits_card_performed_id_idx').on(t.cardId, t.performedAt, t.id),
    // The distinct names a clinic's visits were recorded with, read from the index alone by the visits search.
    index('visits_clinic_service_idx').on(t.clinicId, t.serviceName),
    check('visits_amounts_consistent', sql`${t.originalCents} >= 0 and ${t.discountCents} >= 0 and ${t.finalCents} = ${t.originalCents} - ${t.discountCents}`),
    check('visits_discount_percent_range', sql`${t.discountPercent} between 0 and 100`),
  ],
);

/**
 * Who a CPF belongs to in a clinic (DESIGN.md §2: one person per clinic, holders and dependents alike). Checkout and
 * the dependents' API claim a CPF here before writing it on the person; a second claim is refused. A clinic admin can
 * move a claim to its real owner after checking a document (audited).
 */
export const cpfClaims = pgTable(
  'cpf_claims',
  {
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    cpf: varchar('cpf', { length: 11 }).notNull(),
    /** The holder; with `dependent_id`, the holder of that dependent. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dependentId: uuid('dependent_id').references(() => dependents.id, { onDelete: 'cascade' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.clinicId, t.cpf] }),
    // One CPF per person: a person claims at most one (the holder's own, or one per dependent).
    uniqueIndex('cpf_claims_person_key').on(t.clinicId, t.userId, sql`coalesce(${t.dependentId}, '00000000-0000-0000-0000-000000000000'::uuid)`),
  ],
);

/**
 * The embedded provider's own record of its charges (providers/local.ts): what it made, and what it says was paid,
 * refunded or cancelled. A settlement reads the charge back from here as it reads an Asaas charge back from Asaas, so a
 * local event is believed only when the provider itself recorded the payment ('Simular pagamento').
 */
export const localProviderCharges = pgTable(
  'local_provider_charges',
  {
    id: text('id').primaryKey(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id'),
    status: text('status').notNull(),
    method: paymentMethod('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    dueDate: date('due_date').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedCents: integer('refunded_cents'),
    ...timestamps,
  },
  (t) => [index('local_provider_charges_subscription_idx').on(t.subscriptionId)],
);

// ---------------------------------------------------------------------------------------------------------------
// Payouts (repasses, issue 26).
// ---------------------------------------------------------------------------------------------------------------

/**
 * A clinic's money of one São Paulo month (`period`, its first day), built once by the monthly job from its lines and
 * never edited afterwards but for its status: money taken back later is a line of a later payout.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'restrict' }),
    period: date('period').notNull(),
    attendances: integer('attendances').notNull(),
    grossCents: integer('gross_cents').notNull(),
    feePercent: integer('fee_percent').notNull(),
    feeCents: integer('fee_cents').notNull(),
    netCents: integer('net_cents').notNull(),
    /** The clinic's own Asaas account took the charges, and its split sent the fee to the platform already. */
    feeSplitAtProvider: boolean('fee_split_at_provider').notNull().default(false),
    status: payoutStatus('status').notNull().default('pendente'),
    processingAt: timestamp('processing_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: uuid('paid_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payouts_clinic_period_key').on(t.clinicId, t.period),
    index('payouts_status_period_idx').on(t.status, t.period),
    index('payouts_period_idx').on(t.period),
  ],
);

/**
 * The money a payout is made of: each charge received once, each refund or chargeback once (unique by charge and
 * kind), so building a month twice, or in two processes, never counts a charge twice.
 */
export const payoutLines = pgTable(
  'payout_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'restrict' }),
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id, { onDelete: 'cascade' }),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    kind: payoutLineKind('kind').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** Signed: money taken back is below zero. */
    amountCents: integer('amount_cents').notNull(),
    /** The month the money belonged to when it is carried into a later payout (null: the payout's own month). */
    carriedFromPeriod: date('carried_from_period'),
  },
  (t) => [
    uniqueIndex('payout_lines_payment_kind_key').on(t.paymentId, sql`(${t.kind} = 'recebimento')`),
    index('payout_lines_payout_idx').on(t.payoutId, t.occurredAt),
  ],
);

/**
 * The programme's accredited network (issue 26): own units, partner clinics and laboratories, each with its position
 * for the patients' map and the day the clinic last confirmed its details. Partners count against the platform plan's
 * `max_clinics` (ADR 024).
 */
export const networkPlaces = pgTable(
  'network_places',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: networkCategory('category').notNull(),
    address: text('address').notNull(),
    /** Digits only (area code and number); null when the clinic gave none. */
    phone: varchar('phone', { length: 11 }),
    hours: text('hours'),
    services: text('services').array().notNull().default(sql`'{}'::text[]`),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    lastConfirmedOn: date('last_confirmed_on').notNull(),
    ...timestamps,
  },
  (t) => [
    index('network_places_clinic_idx').on(t.clinicId, t.name),
    check('network_places_latitude_range', sql`${t.latitude} between -90 and 90`),
    check('network_places_longitude_range', sql`${t.longitude} between -180 and 180`),
  ],
);

/**
 * A browser's Web Push subscription for one patient (issue 29): where the push service takes our messages for that
 * browser (`endpoint`, a capability URL) and the keys that encrypt them for it (RFC 8291). Tenant rows, under
 * row-level security like the other tenant tables. One row per endpoint: a browser subscription belongs to one account
 * at a time.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clinicId: uuid('clinic_id')
      .notNull()
      .references(() => clinics.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key (65 bytes, uncompressed point) and 16-byte auth secret, base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    /** The last time the push service took a message for it (null: none yet). */
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * The platform's VAPID key pair (RFC 8292), made on the first start and kept here rather than in the environment or
 * on disk, so that every server process signs with the same key and a browser's subscription survives a restart. One
 * row (id 1); the private key is sealed with a key derived from the auth secret.
 */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: integer('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKeySealed: text('private_key_sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('push_vapid_keys_single_row', sql`${t.id} = 1`)],
);
