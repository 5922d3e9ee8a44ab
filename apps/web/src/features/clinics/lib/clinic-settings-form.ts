import type { ClinicSettings, ClinicSettingsFormInput, OpeningHours } from '@carteirinha/shared/contracts/clinics';
import { formatCep, formatPhone } from '@carteirinha/shared/format';

/** The hours a day gets when the clinic opens it: a working day the owner then adjusts. */
export const DEFAULT_OPENING: Record<keyof OpeningHours, { open: string; close: string }> = {
  weekdays: { open: '08:00', close: '18:00' },
  saturday: { open: '08:00', close: '12:00' },
};

/** The saved settings as the form's first values: phone and CEP masked as people read them, absent text empty. */
export function formValuesOf(settings: ClinicSettings): ClinicSettingsFormInput {
  return {
    name: settings.name,
    phone: settings.phone ? formatPhone(settings.phone) : '',
    contactEmail: settings.contactEmail ?? '',
    postalCode: settings.postalCode ? formatCep(settings.postalCode) : '',
    street: settings.street ?? '',
    streetNumber: settings.streetNumber ?? '',
    addressComplement: settings.addressComplement ?? '',
    district: settings.district ?? '',
    city: settings.city ?? '',
    state: settings.state ?? '',
    openingHours: settings.openingHours,
    notifications: settings.notifications,
    graceDays: settings.graceDays,
  };
}
