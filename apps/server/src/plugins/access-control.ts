import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { messages } from '@carteirinha/shared/messages';
import { clinicInactiveMessage, clinicStandingOf, keptWhileClosed, type ClinicStanding } from '@carteirinha/shared/clinic-standing';
import type { ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import { PERMISSIONS, roleHasPermission, type Permission } from '@carteirinha/shared/permissions';
import type { Role } from '@carteirinha/shared/roles';
import type { Database } from '../db/client.ts';
import { AppError } from '../lib/app-error.ts';
import { redactUrl } from '../lib/log-redaction.ts';
import type { Auth } from '../modules/auth/auth.ts';
import type { CallerReader } from '../modules/auth/caller.ts';
import { endSessionsOfUser } from '../modules/auth/sessions.ts';
import { enforceStaffSessionLimits } from '../modules/auth/session-limits.ts';
import type { SettingsStore } from '../modules/settings/store.ts';

/**
 * Who may call a route: anyone, any signed-in user (even one with no role yet), or holders of a permission.
 * Every /api route must declare one (see `registerAccessControl`), so a new route cannot forget it.
 */
export type Access = 'public' | 'authenticated' | Permission;

/** The caller, built once per request from the session cookie and the `user_roles` row. */
export type RequestContext = {
  userId: string;
  sessionId: string;
  email: string;
  fullName: string;
  emailVerified: boolean;
  role: Role | null;
  clinicId: string | null;
  /** Whether the caller's clinic serves its people now (ADR 010); null for a caller without a clinic. */
  clinicStanding: ClinicStanding | null;
  /**
   * Two-factor state: `required` when the platform demands it of this user (admins, per Configurações), `enabled`
   * once the user has a factor, `verified` when this session passed it (a Google sign-in, for one, does not). `passkey` when the user has a passkey, which passes the factor too (ADR 029).
   */
  twoFactor: { required: boolean; enabled: boolean; verified: boolean; passkey: boolean };
  /**
   * The caller's clinic as /api/me shows it, read by the guard's own query (no second round trip on every page
   * load); null without a clinic. Optional only so that contexts built by hand in tests need not invent it.
   */
  clinic?: CallerClinic | null;
};

/** What the guard reads of the caller's clinic. */
export type CallerClinic = { id: string; name: string; slug: string; status: ClinicStatus; trialEndsAt: Date | null; approvedAt: Date | null };

/** A caller that belongs to a clinic: every tenant-owned query is scoped by this `clinicId`. */
export type TenantContext = RequestContext & { role: Exclude<Role, 'admin'>; clinicId: string };

/** One row per /api route we own, as registered: the authorization-matrix test enumerates these. */
export type RouteRule = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyInstance {
    routeRules: RouteRule[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /**
     * On an 'authenticated' route: a caller without any session reaches the handler (with `ctx` null) instead of a
     * 401, so that the session probe answers a signed-out visitor without an error. A session that is refused
     * (expired, deactivated, another clinic's) still answers 401.
     */
    signedOutAllowed?: boolean;
  }
  interface FastifyRequest {
    ctx: RequestContext | null;
  }
}

function isAccess(value: unknown): value is Access {
  return value === 'public' || value === 'authenticated' || PERMISSIONS.some((permission) => permission === value);
}

/** Routes we do not own, served by plugins (the OpenAPI viewer), are public by nature. */
function isPluginRoute(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/');
}

export type AccessDeps = {
  auth: Auth;
  db: Database;
  settings: SettingsStore;
  /** The caller's one-statement read (createCallerReader), made once per app. */
  callers: CallerReader;
  /** The clock of the clinic's standing (a trial's end); the session rules go by the caller reader's clock. */
  now?: () => Date;
};

/**
 * Who 'Exigir 2FA para administradores' covers: the platform's admins and each clinic's admin (security checklist:
 * AAL2 is mandatory for admin and clinic_admin). Receptionists and patients are not asked.
 */
function isAdministrator(role: Role | null): boolean {
  return role === 'admin' || role === 'clinic_admin';
}

/** Whether Configurações' 'Autenticação em dois fatores' asks this role for a second factor. */
export function twoFactorRequiredOf(role: Role | null, requireAdminTwoFactor: boolean): boolean {
  return isAdministrator(role) && requireAdminTwoFactor;
}

/**
 * A deactivated account's session, however it was made (a sign-in that raced 'Desativar'), stops at the next request
 * it makes: every session of the account is ended with it.
 */
export async function refuseDeactivatedAccount(db: Database, user: { id: string; deactivatedAt?: Date | null | undefined }): Promise<void> {
  if (!user.deactivatedAt) return;
  await endSessionsOfUser(db, user.id);
  throw new AppError('UNAUTHENTICATED', messages.adminUsers.accountDeactivated);
}

/**
 * The standing of the caller's clinic; null without one. Fails closed: a clinic the query could not see (a row-level
 * policy, say) counts as suspended rather than letting its people through unchecked.
 */
function standingOfAssignment(clinicId: string | null, status: ClinicStatus | null, trialEndsAt: Date | null, now: Date): ClinicStanding | null {
  if (clinicId === null) return null;
  if (status === null) return 'suspended';
  return clinicStandingOf({ status, trialEndsAt }, now);
}

type Assignment = {
  clinicId: string | null;
  clinicStatus: ClinicStatus | null;
  trialEndsAt: Date | null;
  clinicName: string | null;
  clinicSlug: string | null;
  approvedAt: Date | null;
};

function callerClinicOf(assignment: Assignment | undefined): CallerClinic | null {
  if (!assignment?.clinicId || assignment.clinicStatus === null || assignment.clinicName === null || assignment.clinicSlug === null) return null;
  return {
    id: assignment.clinicId,
    name: assignment.clinicName,
    slug: assignment.clinicSlug,
    status: assignment.clinicStatus,
    trialEndsAt: assignment.trialEndsAt,
    approvedAt: assignment.approvedAt,
  };
}

/**
 * Who calls: the caller's session, user, role and clinic in one statement (modules/auth/caller.ts), then the session
 * rules of ADR 002 and the security checklist. A read request writes nothing here but the staff activity stamp (at
 * most once a minute per session) and better-auth's sliding renewal (at most once a day per session); a deactivated
 * account's sessions, and a staff session past its limits, are ended.
 */
async function loadContext(deps: AccessDeps, request: FastifyRequest, reply: FastifyReply | null): Promise<RequestContext | null> {
  const { db, settings } = deps;
  const now = (deps.now ?? currentTime)();
  const caller = await deps.callers.read(request.headers.cookie);
  if (!caller) return null;
  await refuseDeactivatedAccount(db, { id: caller.userId, deactivatedAt: caller.deactivatedAt });
  const { role, clinicId } = caller;
  const session = { id: caller.sessionId, createdAt: caller.createdAt, lastActiveAt: caller.lastActiveAt };
  await enforceStaffSessionLimits({ db, settings, log: request.log }, session, role, deps.callers.clock());
  // A page the server draws has no answer of ours to carry a renewed cookie: the next API call renews it.
  if (caller.renewalDue && reply) await renewSession(deps.auth, request, reply);

  return {
    userId: caller.userId,
    sessionId: caller.sessionId,
    email: caller.email,
    fullName: caller.name,
    emailVerified: caller.emailVerified,
    role,
    clinicId,
    clinicStanding: standingOfAssignment(clinicId, caller.clinicStatus, caller.trialEndsAt, now),
    clinic: callerClinicOf(caller),
    twoFactor: {
      required: twoFactorRequiredOf(role, (await settings.get()).requireAdminTwoFactor),
      enabled: caller.twoFactorEnabled,
      verified: caller.twoFactorVerified,
      passkey: caller.hasPasskey,
    },
  };
}

function currentTime(): Date {
  return new Date();
}

/**
 * better-auth's sliding renewal, once a day per session: its own get-session moves the expiry forward and renews the
 * cookie, which this answer carries to the browser.
 */
async function renewSession(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { headers } = await auth.api.getSession({ headers: fromNodeHeaders(request.headers), returnHeaders: true });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
}

/** On a clinic's own site only that clinic's people are signed in; everyone else uses the platform's site. */
function belongsElsewhere(site: FastifyRequest['site'], ctx: RequestContext): boolean {
  return site?.kind === 'clinic' && ctx.clinicId !== site.clinic.id;
}

/**
 * Who is signed in, for a page the server draws (the landing page, ADR 019): the API's own session rules, except
 * that a session the API would refuse (expired, deactivated, another clinic's on this host) is just a visitor there.
 */
export async function visitorContext(deps: AccessDeps, request: FastifyRequest): Promise<RequestContext | null> {
  try {
    const ctx = await loadContext(deps, request, null);
    return ctx && !belongsElsewhere(request.site, ctx) ? ctx : null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The one server-side guard. It runs before the body is parsed: a caller without a session gets 401, a caller
 * whose role lacks the route's permission gets 403. Tenant scoping then happens in each repository.
 */
export function registerAccessControl(app: FastifyInstance, deps: AccessDeps): void {
  app.decorateRequest('ctx', null);
  const routeRules: RouteRule[] = [];
  app.decorate('routeRules', routeRules);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || isPluginRoute(route.url)) return;
    const access = route.config?.access;
    if (!isAccess(access)) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule (config.access)`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // HEAD routes are Fastify's automatic twins of GET routes.
    for (const method of methods) if (method !== 'HEAD') routeRules.push({ method, url: route.url, access });
  });

  // better-auth's routes change the session itself (sign-out, a second factor checked, a renewal): this process's copy
  // goes at once, and the trigger's message clears the others' (ADR 035).
  // Before the answer leaves, so that the browser's next request cannot overtake it.
  app.addHook('onSend', async (request) => {
    if (request.url.startsWith('/api/auth/')) deps.callers.forget(request.headers.cookie);
  });

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const ctx = await loadContext(deps, request, reply);
    if (!ctx && access === 'authenticated' && request.routeOptions.config.signedOutAllowed === true) return;
    if (!ctx) throw new AppError('UNAUTHENTICATED');
    if (belongsElsewhere(request.site, ctx)) {
      throw new AppError('UNAUTHENTICATED', messages.tenancy.wrongClinic);
    }
    request.ctx = ctx;
    if (access === 'authenticated') return;
    // A session that owes its second factor (not enrolled yet, or signed in without the code) may only reach /api/me
    // and the two-factor endpoints.
    if (owesSecondFactor(ctx)) throw new AppError('TWO_FACTOR_REQUIRED');
    if (!ctx.role || !roleHasPermission(ctx.role, access)) {
      request.log.warn({ userId: ctx.userId, role: ctx.role, access, url: redactUrl(request.url) }, 'authz.denied');
      throw new AppError('FORBIDDEN');
    }
    // A suspended, cancelled or expired clinic's people keep only what ADR 010 lists, on the platform's host too
    // (the clinic's own host is already closed by the host-site hook).
    if (ctx.clinicStanding !== null && ctx.clinicStanding !== 'open' && !keptWhileClosed(ctx.role, access)) {
      request.log.info({ userId: ctx.userId, role: ctx.role, access, standing: ctx.clinicStanding, url: redactUrl(request.url) }, 'authz.clinic_inactive');
      throw new AppError('CLINIC_INACTIVE', clinicInactiveMessage(ctx.role, ctx.clinicStanding));
    }
  });
}

/** Whether the session must still pass a second factor: required of the user, or the user has one. */
export function owesSecondFactor(ctx: { twoFactor: Pick<RequestContext['twoFactor'], 'required' | 'enabled' | 'verified'> }): boolean {
  return (ctx.twoFactor.required || ctx.twoFactor.enabled) && !ctx.twoFactor.verified;
}

/** The signed-in caller of a route whose access is not 'public'. */
export function requireContext(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new AppError('UNAUTHENTICATED');
  return request.ctx;
}

/** The caller as a member of a clinic; an admin or a user without a clinic has no tenant here. */
export function requireTenant(request: FastifyRequest): TenantContext {
  const ctx = requireContext(request);
  if (ctx.role === null || ctx.role === 'admin' || ctx.clinicId === null) throw new AppError('FORBIDDEN');
  return { ...ctx, role: ctx.role, clinicId: ctx.clinicId };
}
