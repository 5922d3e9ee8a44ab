import { DEFAULT_DISCOUNTS } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { contractTerms } from '../../db/schema.ts';
import { defaultTermsBody } from '../checkout/default-terms.ts';
import { insertSubscriptionPlan } from './repository.ts';

const m = messages.planForm;
/** The delinquency grace a new clinic starts with (clinic_settings.grace_days' default). */
const DEFAULT_GRACE_DAYS = 5;

/**
 * What every new clinic starts its programme with, whoever creates it (the admin's 'Nova Clínica' or self-service
 * onboarding): one sensible plan it can edit (R$ 39,90 a month, the default discounts, no carência) and version 1 of
 * the contract terms. The plan is not on sale until the clinic's owner has reviewed its price and saved it once
 * (issue 25: patients must never be offered a price the owner never set). Runs inside the clinic's creating
 * transaction.
 */
export async function provisionClinicProgramme(tx: Database, clinic: { id: string; name: string; createdBy: string | null }): Promise<void> {
  await insertSubscriptionPlan(tx, { clinicId: clinic.id }, {
    name: m.starterName,
    description: m.starterDescription,
    priceCents: 3990,
    dependentPriceCents: 1490,
    adhesionFeeCents: 0,
    billingCycle: 'monthly',
    features: [m.starterFeatureConsultas, m.starterFeatureExames, m.starterFeatureProcedimentos, m.starterFeatureCard],
    maxMembers: 4,
    waitingDays: 0,
    discountConsultas: DEFAULT_DISCOUNTS.consultas,
    discountExames: DEFAULT_DISCOUNTS.exames,
    discountProcedimentos: DEFAULT_DISCOUNTS.procedimentos,
    isActive: true,
  }, { awaitingReview: true, now: new Date() });
  await tx.insert(contractTerms).values({ clinicId: clinic.id, version: 1, body: defaultTermsBody(clinic.name, DEFAULT_GRACE_DAYS), createdBy: clinic.createdBy });
}
