/**
 * Meu Perfil (issue 27): the patient's own personal data and photo. The name lives twice — better-auth's `users.name`
 * (the session's, the e-mails') and `profiles.full_name` (cards, the clinic's lists) — and changes in both at once.
 * The CPF is read-only once set; a first CPF follows the rule of one person per clinic, as at checkout.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PatientProfile, PatientProfileChanges } from '@carteirinha/shared/contracts/profiles';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { profiles, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { reencodeImage } from '../../lib/images.ts';
import type { Storage } from '../../lib/storage.ts';
import { claimHolderCpf, refuseCpfOfAnother } from './service.ts';

/** Big enough for the card and the validation panel on a retina screen, small enough to load at the front desk. */
const PHOTO_MAX_SIDE = 512;

type Patient = { userId: string; clinicId: string | null };

export async function myProfile(db: Database, userId: string): Promise<PatientProfile> {
  const [row] = await db
    .select({ name: users.name, email: users.email, fullName: profiles.fullName, cpf: profiles.cpf, phone: profiles.phone, birthDate: profiles.birthDate, photoUrl: profiles.avatarUrl })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return { fullName: row.fullName ?? row.name, email: row.email, cpf: row.cpf, phone: row.phone, birthDate: row.birthDate, photoUrl: row.photoUrl };
}

/** A first CPF is claimed in the patient's clinic; a different one once set is refused, as the checkout refuses it. */
async function settleCpf(tx: Database, patient: Patient, current: string | null, wanted: string | null | undefined, now: Date): Promise<string | null> {
  if (!wanted || wanted === current) return current;
  if (current) throw new AppError('VALIDATION', messages.checkoutRules.cpfLocked);
  if (patient.clinicId) {
    await refuseCpfOfAnother(tx, { clinicId: patient.clinicId, userId: patient.userId, cpf: wanted });
    await claimHolderCpf(tx, { clinicId: patient.clinicId, userId: patient.userId, cpf: wanted, now });
  }
  return wanted;
}

/** 'Salvar Alterações': the whole form in one transaction, audited with the fields that changed (never their values). */
export async function updateMyProfile(db: Database, patient: Patient, input: PatientProfileChanges, now: Date): Promise<PatientProfile> {
  await db.transaction(async (tx) => {
    const before = await myProfile(tx, patient.userId);
    const cpf = await settleCpf(tx, patient, before.cpf, input.cpf, now);
    const values = { fullName: input.fullName, cpf, phone: input.phone, birthDate: input.birthDate };
    await tx
      .insert(profiles)
      .values({ id: patient.userId, ...values })
      .onConflictDoUpdate({ target: profiles.id, set: { ...values, updatedAt: now } });
    await tx.update(users).set({ name: input.fullName, updatedAt: now }).where(eq(users.id, patient.userId));
    const changed = (['fullName', 'cpf', 'phone', 'birthDate'] as const).filter((field) => before[field] !== values[field]);
    if (changed.length > 0) {
      await recordAudit(tx, { actorUserId: patient.userId, action: 'profile.updated', entity: 'user', entityId: patient.userId, clinicId: patient.clinicId, details: { fields: changed } });
    }
  });
  return myProfile(db, patient.userId);
}

/**
 * A new photo: the bytes are sniffed and re-encoded (lib/images.ts), stored under an unguessable name — the uploads
 * folder is public, and a person's face is personal data — and the previous file is removed once the row points at
 * the new one.
 */
export async function replaceMyPhoto(db: Database, storage: Storage, patient: Patient, bytes: Buffer, now: Date): Promise<PatientProfile> {
  const photo = await reencodeImage(bytes, { maxSide: PHOTO_MAX_SIDE });
  const url = await storage.put(`avatars/${randomBytes(16).toString('hex')}.webp`, photo);
  const previous = await db
    .transaction(async (tx) => {
    const before = await myProfile(tx, patient.userId);
    await tx
      .insert(profiles)
      .values({ id: patient.userId, fullName: before.fullName, avatarUrl: url })
      .onConflictDoUpdate({ target: profiles.id, set: { avatarUrl: url, updatedAt: now } });
    await recordAudit(tx, { actorUserId: patient.userId, action: 'profile.photo_updated', entity: 'user', entityId: patient.userId, clinicId: patient.clinicId, details: {} });
    return before.photoUrl;
  })
    .catch(async (error: unknown) => {
      await storage.removeByUrl(url);
      throw error;
    });
  if (previous) await storage.removeByUrl(previous);
  return myProfile(db, patient.userId);
}
