import type { MemberDetail } from '@carteirinha/shared/contracts/members';
import { MEMBER_DETAIL_ROWS } from '@carteirinha/shared/contracts/members';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { memberVisits } from '../visits/service.ts';
import { findMember, memberRecords } from './repository.ts';

export { listMembers } from './repository.ts';

type Scope = { clinicId: string };

/**
 * 'Pacientes' › a member: everything the clinic holds of them — a person who is not this clinic's patient is 404,
 * exactly as one who does not exist.
 */
export async function memberDetail(db: Database, scope: Scope, userId: string): Promise<MemberDetail> {
  const member = await findMember(db, scope, userId);
  if (!member) throw new AppError('NOT_FOUND', messages.members.notFound);
  const [records, visits] = await Promise.all([memberRecords(db, scope, userId), memberVisits(db, scope, userId, MEMBER_DETAIL_ROWS)]);
  return { ...member, ...records, visits };
}
