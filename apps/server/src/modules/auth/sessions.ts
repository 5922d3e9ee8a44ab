import type { Database } from '../../db/client.ts';
import { deleteSessionsOfUser } from './repository.ts';

/**
 * Ends every session of an account at once: its next request finds none and the person is signed out. Used when an
 * account's rights change or go — a role changed or removed (admin Usuários, the clinic's Equipe), an account
 * deactivated — so the new rights, or none, apply from the next request.
 */
export async function endSessionsOfUser(db: Database, userId: string): Promise<void> {
  await deleteSessionsOfUser(db, userId);
}
