/**
 * Configurações (issue 25): the clinic's own data, opening hours, the e-mails it sends its patients and its grace
 * period, read and saved by its admin. The CNPJ is shown and never written here (it identifies the clinic to the
 * platform and to the payment provider).
 */
import { eq } from 'drizzle-orm';
import type { ClinicContact, ClinicNotification, ClinicNotifications, ClinicSettings, ClinicSettingsForm, OpeningHours } from '@carteirinha/shared/contracts/clinics';
import { openingHoursSchema } from '@carteirinha/shared/contracts/clinics';
import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import type { Database } from '../../db/client.ts';
import { clinicSettings, clinics, userRoles } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import type { SiteOptions } from './service.ts';

type Actor = { clinicId: string; userId: string };

const ALL_ON: ClinicNotifications = { paymentConfirmed: true, reminderBefore: true, reminderDue: true, overdue: true };
const CLOSED: OpeningHours = { weekdays: null, saturday: null };

/** Stored hours, read back through their schema: a row written before the field existed has none (closed). */
function openingHoursOf(stored: unknown): OpeningHours {
  const parsed = openingHoursSchema.safeParse(stored);
  return parsed.success ? parsed.data : CLOSED;
}

async function settingsRow(db: Database, clinicId: string) {
  const [row] = await db
    .select({
      graceDays: clinicSettings.graceDays,
      paymentConfirmed: clinicSettings.notifyPaymentConfirmed,
      reminderBefore: clinicSettings.notifyReminderBefore,
      reminderDue: clinicSettings.notifyReminderDue,
      overdue: clinicSettings.notifyOverdue,
    })
    .from(clinicSettings)
    .where(eq(clinicSettings.clinicId, clinicId))
    .limit(1);
  return row ?? null;
}

/** GET /api/clinic/settings. */
export async function clinicSettingsOf(db: Database, clinicId: string, site: SiteOptions): Promise<ClinicSettings> {
  const [[clinic], settings] = await Promise.all([db.select().from(clinics).where(eq(clinics.id, clinicId)).limit(1), settingsRow(db, clinicId)]);
  if (!clinic) throw new AppError('NOT_FOUND');
  return {
    name: clinic.name,
    cnpj: clinic.cnpj,
    siteUrl: clinicSiteUrl(clinic, site),
    phone: clinic.phone,
    contactEmail: clinic.contactEmail,
    postalCode: clinic.postalCode,
    street: clinic.street,
    streetNumber: clinic.streetNumber,
    addressComplement: clinic.addressComplement,
    district: clinic.district,
    city: clinic.city,
    state: clinic.state,
    openingHours: openingHoursOf(clinic.openingHours),
    notifications: settings ? { paymentConfirmed: settings.paymentConfirmed, reminderBefore: settings.reminderBefore, reminderDue: settings.reminderDue, overdue: settings.overdue } : ALL_ON,
    graceDays: settings?.graceDays ?? GRACE_DAYS_DEFAULT,
  };
}

/** PUT /api/clinic/settings: the clinic's row and its settings row in one transaction, audited. */
export async function saveClinicSettings(db: Database, actor: Actor, form: ClinicSettingsForm, site: SiteOptions, now: Date): Promise<ClinicSettings> {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(clinics)
      .set({
        name: form.name,
        phone: form.phone,
        contactEmail: form.contactEmail,
        postalCode: form.postalCode,
        street: form.street,
        streetNumber: form.streetNumber,
        addressComplement: form.addressComplement,
        district: form.district,
        city: form.city,
        state: form.state,
        openingHours: form.openingHours,
        updatedAt: now,
      })
      .where(eq(clinics.id, actor.clinicId))
      .returning({ id: clinics.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND');
    const settings = {
      graceDays: form.graceDays,
      notifyPaymentConfirmed: form.notifications.paymentConfirmed,
      notifyReminderBefore: form.notifications.reminderBefore,
      notifyReminderDue: form.notifications.reminderDue,
      notifyOverdue: form.notifications.overdue,
      updatedAt: now,
    };
    await tx
      .insert(clinicSettings)
      .values({ clinicId: actor.clinicId, ...settings })
      .onConflictDoUpdate({ target: clinicSettings.clinicId, set: settings });
    await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.settings_updated', entity: 'clinic', entityId: actor.clinicId, clinicId: actor.clinicId, details: { ...form } });
  });
  return clinicSettingsOf(db, actor.clinicId, site);
}

/** The clinic's address on one line, as its site prints it ("Rua X, 123 — Bairro, Cidade/UF, CEP 01234-567"). */
function addressLine(clinic: typeof clinics.$inferSelect): string | null {
  const street = [clinic.street, clinic.streetNumber].filter(Boolean).join(', ');
  const withComplement = [street, clinic.addressComplement].filter(Boolean).join(' ');
  const place = [clinic.district, [clinic.city, clinic.state].filter(Boolean).join('/')].filter(Boolean).join(', ');
  const cep = clinic.postalCode ? `CEP ${clinic.postalCode.slice(0, 5)}-${clinic.postalCode.slice(5)}` : '';
  const line = [withComplement, place, cep].filter(Boolean).join(' — ');
  return line === '' ? null : line;
}

/** What the clinic's site shows besides its plans: opening hours and how to reach it. */
export async function clinicContactOf(db: Database, clinicId: string): Promise<ClinicContact> {
  const [clinic] = await db.select().from(clinics).where(eq(clinics.id, clinicId)).limit(1);
  if (!clinic) return { openingHours: null, phone: null, contactEmail: null, address: null };
  const hours = openingHoursOf(clinic.openingHours);
  return {
    openingHours: hours.weekdays || hours.saturday ? hours : null,
    phone: clinic.phone,
    contactEmail: clinic.contactEmail,
    address: addressLine(clinic),
  };
}

/**
 * Whether the clinic a patient belongs to sends them `notification` (Configurações' switches). A patient without a
 * clinic, or a clinic that never saved its settings, gets every e-mail.
 */
export async function clinicSendsToPatient(db: Database, patientUserId: string, notification: ClinicNotification): Promise<boolean> {
  const [role] = await db.select({ clinicId: userRoles.clinicId }).from(userRoles).where(eq(userRoles.userId, patientUserId)).limit(1);
  if (!role?.clinicId) return true;
  const settings = await settingsRow(db, role.clinicId);
  return settings ? settings[notification] : true;
}

/** The clinic's name, its site's address and whether it still awaits 'Aprovar Cadastro' (ADR 010). */
export async function clinicSiteFactsOf(db: Database, clinicId: string, site: SiteOptions): Promise<{ id: string; name: string; siteUrl: string; awaitingApproval: boolean }> {
  const [clinic] = await db
    .select({ id: clinics.id, name: clinics.name, slug: clinics.slug, domain: clinics.domain, status: clinics.status, approvedAt: clinics.approvedAt })
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .limit(1);
  if (!clinic) throw new AppError('NOT_FOUND');
  return { id: clinic.id, name: clinic.name, siteUrl: clinicSiteUrl(clinic, site), awaitingApproval: clinic.status === 'trial' && clinic.approvedAt === null };
}
