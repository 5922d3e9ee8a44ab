import type { PatientHome } from '@carteirinha/shared/contracts/patient-visits';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { programmePlaceCount } from '../network/service.ts';
import { coveredDependents, latestPatientVisits, nextAppointment } from '../visits/patient-history.ts';

/** How many of the latest visits Início lists (specification §2: "the latest three visits"). */
const LATEST_VISITS = 3;

/**
 * Início's tiles and list, read in one tenant-scoped transaction: the next visit booked ahead (from `now`), the
 * dependents covered, the latest concluded visits and how many places the accredited network has. The plan card reads GET /api/patient/subscription.
 */
export async function patientHome(db: Database, patient: { clinicId: string; userId: string }, now: Date): Promise<PatientHome> {
  return withTenantScope(db, patient.clinicId, async (tx) => ({
    nextAppointment: await nextAppointment(tx, patient, now),
    dependents: await coveredDependents(tx, patient),
    latestVisits: await latestPatientVisits(tx, patient, LATEST_VISITS),
    networkPlaces: await programmePlaceCount(tx, patient),
  }));
}
