import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PASSKEYS_PER_USER_MAX, type Passkey, type RegisterPasskeyInput, type RegistrationOptions } from '@carteirinha/shared/contracts/passkeys';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { owesSecondFactor, type RequestContext } from '../../plugins/access-control.ts';
import { PasskeyCeremonyError, registrationOptions, verifiedRegistration, type CeremonyFailure } from './ceremonies.ts';
import type { RelyingParty } from './relying-party.ts';
import { countPasskeysOf, insertPasskey, listPasskeysOf, markSessionVerifiedByPasskey, removePasskeyOf, type PasskeyRow } from './repository.ts';

export type PasskeyDeps = { db: Database; now: () => Date };

const CEREMONY_MESSAGES: Record<CeremonyFailure, string> = {
  [AUTH_ERROR_CODES.passkeyChallengeExpired]: messages.passkeys.expired,
  [AUTH_ERROR_CODES.passkeyNotRecognized]: messages.passkeys.notRecognized,
  [AUTH_ERROR_CODES.passkeyWrongDomain]: messages.passkeys.invalidDomain,
  [AUTH_ERROR_CODES.passkeyRefused]: messages.passkeys.refused,
};

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    rpId: row.rpId,
    deviceType: row.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: row.backedUp,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Whether the account has a passkey: one that owes a second factor then enrols nothing more, it uses the passkey. */
export async function hasPasskeys(db: Database, userId: string): Promise<boolean> {
  return (await countPasskeysOf(db, userId)) > 0;
}

/** Every relying party needs a host name: a site reached by IP address takes no passkeys. */
function requireRelyingParty(rp: RelyingParty | null): RelyingParty {
  if (!rp) throw new AppError('VALIDATION', messages.passkeys.invalidDomain);
  return rp;
}

/**
 * Listing and removing wait for the second factor, as the rest of the account does. Adding is also how an
 * administrator enrols a first factor (ADR 029): while owing one, only a user who has no factor yet may add a passkey,
 * so a stolen password cannot plant a key of the thief's on an account that has a factor.
 */
async function refuseWhileOwingSecondFactor(deps: PasskeyDeps, ctx: RequestContext, purpose: 'manage' | 'enrol'): Promise<void> {
  if (!owesSecondFactor(ctx)) return;
  if (purpose === 'enrol' && !ctx.twoFactor.enabled && !(await hasPasskeys(deps.db, ctx.userId))) return;
  throw new AppError('TWO_FACTOR_REQUIRED', purpose === 'enrol' ? messages.passkeys.enrolNotAllowed : messages.passkeys.secondFactorFirst);
}

export async function listMyPasskeys(deps: PasskeyDeps, ctx: RequestContext): Promise<Passkey[]> {
  await refuseWhileOwingSecondFactor(deps, ctx, 'manage');
  return (await listPasskeysOf(deps.db, ctx.userId)).map(toPasskey);
}

/** The options of a registration ceremony on this site, for the signed-in user. */
export async function startPasskeyRegistration(deps: PasskeyDeps, ctx: RequestContext, rp: RelyingParty | null, siteName: string): Promise<RegistrationOptions> {
  const site = { ...requireRelyingParty(rp), name: siteName };
  await refuseWhileOwingSecondFactor(deps, ctx, 'enrol');
  if ((await countPasskeysOf(deps.db, ctx.userId)) >= PASSKEYS_PER_USER_MAX) {
    throw new AppError('CONFLICT', formatMessage(messages.passkeys.limitReached, { max: PASSKEYS_PER_USER_MAX }));
  }
  return registrationOptions(deps, site, { id: ctx.userId, email: ctx.email, name: ctx.fullName });
}

/**
 * Stores the passkey the browser made. When it is an administrator's first factor (enrolment), the session that made
 * it has now passed the second factor, as a TOTP enrolment's does, and ends with the passkey.
 */
export async function finishPasskeyRegistration(deps: PasskeyDeps, ctx: RequestContext, rp: RelyingParty | null, input: RegisterPasskeyInput): Promise<Passkey> {
  const site = requireRelyingParty(rp);
  await refuseWhileOwingSecondFactor(deps, ctx, 'enrol');
  let verified;
  try {
    verified = await verifiedRegistration(deps, site, ctx.userId, input.name, input.response);
  } catch (error) {
    if (error instanceof PasskeyCeremonyError) throw new AppError('VALIDATION', CEREMONY_MESSAGES[error.code]);
    throw error;
  }
  const { userVerified: _userVerified, ...passkey } = verified;
  const stored = await insertPasskey(deps.db, passkey);
  if (!stored) throw new AppError('CONFLICT', messages.passkeys.alreadyRegistered);
  if (owesSecondFactor(ctx)) await markSessionVerifiedByPasskey(deps.db, ctx.sessionId, stored.id);
  return toPasskey(stored);
}

/** Removes one of the caller's passkeys; its sessions end with it. Never the last way into the account. */
export async function removeMyPasskey(deps: PasskeyDeps, ctx: RequestContext, passkeyId: string): Promise<void> {
  await refuseWhileOwingSecondFactor(deps, ctx, 'manage');
  const outcome = await removePasskeyOf(deps.db, ctx.userId, passkeyId);
  if (outcome === 'not-found') throw new AppError('NOT_FOUND', messages.passkeys.notFound);
  if (outcome === 'last-way') throw new AppError('CONFLICT', messages.passkeys.lastWayIn);
}
