/**
 * 'Importar CSV' on Pacientes (issue 26): a company enrolls its employees. The preview reads the file and says, line
 * by line, what would stop each person from joining, writing nothing; the confirmation reads the same bytes again
 * under the clinic's enrolment lock, finds the same good lines (or refuses the whole import, nothing written) and
 * writes them all in one transaction: each person a patient of the clinic, invited by e-mail (a durable job), and when
 * the company pays, its membership and an active subscription per person, through the lifecycle.
 */
import { isValidCpf, isValidEmail, isValidPhone } from '@brazilian-utils/brazilian-utils';
import type { MemberImportPreview, MemberImportResult, MemberImportRow } from '@carteirinha/shared/contracts/member-imports';
import type { memberImportConfirmSchema, memberImportRequestSchema } from '@carteirinha/shared/contracts/member-imports';
import type { z } from 'zod';
import { digitsOnly } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { saoPauloDay, saoPauloMidnight } from '@carteirinha/shared/sao-paulo-time';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { enrolByCompany } from '../subscriptions/lifecycle.ts';
import { readImportFile, type ImportLine } from './import-file.ts';
import { enqueueMemberInvitations } from './invitation-jobs.ts';
import {
  accountsByEmail,
  claimedCpfs,
  findPlanOnSale,
  insertCompanyMembership,
  insertImportedPatients,
  lockClinicEnrolments,
  patientRoom,
  type ImportedPerson,
} from './repository.ts';

const t = messages.memberImport;
const NAME_MIN = 3;
const NAME_MAX = 120;

/** The clinic admin importing: every read and write is confined to `clinicId`. */
export type ImportActor = { clinicId: string; userId: string };
export type ImportDeps = { db: Database; jobs: Pick<JobRunner, 'enqueue' | 'kick'>; now: () => Date };

type CheckedRow = MemberImportRow & { person: ImportedPerson | null };

/** dd/mm/aaaa (as Excel pt-BR shows it) or aaaa-mm-dd, a real day in the past; '' is no date. */
function birthDateOf(value: string, today: string): string | null | 'invalid' {
  if (value === '') return null;
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return 'invalid';
  const [day, month, year] = value.includes('/') ? [match[1], match[2], match[3]] : [match[3], match[2], match[1]];
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const date = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso || iso > today || iso < '1900-01-01') return 'invalid';
  return iso;
}

/** What is wrong with one line on its own: name, CPF check digits, e-mail, birth date, phone. */
function checkLine(line: ImportLine, today: string): CheckedRow {
  const errors: string[] = [];
  const cpf = digitsOnly(line.cpf);
  if (line.fullName.length < NAME_MIN || line.fullName.length > NAME_MAX) errors.push(messages.validation.fullNameMin);
  if (cpf.length !== 11 || !isValidCpf(cpf)) errors.push(messages.validation.invalidCpf);
  if (!isValidEmail(line.email) || line.email.length > 254) errors.push(messages.validation.invalidEmail);
  const birthDate = birthDateOf(line.birthDate, today);
  if (birthDate === 'invalid') errors.push(t.invalidBirthDate);
  const phone = digitsOnly(line.phone);
  if (line.phone !== '' && !isValidPhone(phone)) errors.push(messages.validation.invalidPhone);
  const row = { line: line.line, fullName: line.fullName, cpf, email: line.email, birthDate: birthDate === 'invalid' ? line.birthDate : birthDate, phone: line.phone === '' ? null : phone, errors };
  return { ...row, person: errors.length === 0 ? { fullName: line.fullName, cpf, email: line.email, birthDate: birthDate === 'invalid' ? null : birthDate, phone: row.phone } : null };
}

function flagDuplicates(rows: CheckedRow[], key: (row: CheckedRow) => string, message: string): void {
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const value = key(row);
    if (value === '') continue;
    const first = firstLine.get(value);
    if (first === undefined) firstLine.set(value, row.line);
    else row.errors.push(formatMessage(message, { line: first }));
  }
}

/** Every line checked against the file, the clinic's programme, the accounts of the platform and the plan's room. */
async function checkFile(db: Database, actor: ImportActor, lines: ImportLine[], now: Date): Promise<CheckedRow[]> {
  const rows = lines.map((line) => checkLine(line, saoPauloDay(now)));
  flagDuplicates(rows, (row) => (row.cpf.length === 11 ? row.cpf : ''), t.duplicateCpfInFile);
  flagDuplicates(rows, (row) => row.email, t.duplicateEmailInFile);
  const [claimed, accounts, room] = await Promise.all([
    claimedCpfs(db, actor, [...new Set(rows.map((row) => row.cpf).filter((cpf) => cpf.length === 11))]),
    accountsByEmail(db, [...new Set(rows.map((row) => row.email).filter((email) => email !== ''))]),
    patientRoom(db, actor),
  ]);
  let places = room?.room ?? Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (claimed.has(row.cpf)) row.errors.push(t.cpfInProgramme);
    const account = accounts.get(row.email);
    if (account) row.errors.push(account.role === 'patient' && account.clinicId === actor.clinicId ? t.emailIsPatient : t.emailHasOtherRole);
    // The plan's room goes to the good lines in the file's order; the lines past it are the ones to leave out.
    if (row.errors.length === 0) {
      if (places <= 0 && room) row.errors.push(formatMessage(t.overPatientLimit, { max: room.max }));
      else places -= 1;
    }
  }
  return rows.map((row) => (row.errors.length === 0 ? row : { ...row, person: null }));
}

/** The request as its contract parsed it (the route did): CNPJ normalised, the file's base64 checked. */
type ParsedRequest = z.output<typeof memberImportRequestSchema>;
type ParsedConfirm = z.output<typeof memberImportConfirmSchema>;

async function readRequest(db: Database, actor: ImportActor, request: ParsedRequest, now: Date) {
  const plan = await findPlanOnSale(db, actor, request.planId);
  if (!plan) throw new AppError('VALIDATION', t.planRequired);
  if (request.payer === 'company' && request.validUntil !== null && request.validUntil < saoPauloDay(now)) throw new AppError('VALIDATION', t.validUntilPast);
  return { plan, file: readImportFile(Buffer.from(request.fileBase64, 'base64')) };
}

function withoutPerson(row: CheckedRow): MemberImportRow {
  const { person: _person, ...shown } = row;
  return shown;
}

/** 'Pré-visualizar': every line with its errors, and the counts. Writes nothing. */
export async function previewMemberImport(deps: ImportDeps, actor: ImportActor, request: ParsedRequest): Promise<MemberImportPreview> {
  const now = deps.now();
  const { file } = await readRequest(deps.db, actor, request, now);
  const rows = await checkFile(deps.db, actor, file.lines, now);
  const valid = rows.filter((row) => row.person !== null).length;
  return { rows: rows.map(withoutPerson), total: rows.length, valid, invalid: rows.length - valid, encoding: file.encoding, delimiter: file.delimiter };
}

/** The lines the preview promised that are no longer good (or good lines it did not promise): the import stops. */
function changedLines(rows: CheckedRow[], expected: readonly number[]): number[] {
  const good = new Set(rows.filter((row) => row.person !== null).map((row) => row.line));
  const promised = new Set(expected);
  return [...new Set([...good, ...promised])].filter((line) => good.has(line) !== promised.has(line)).sort((a, b) => a - b);
}

/**
 * 'Confirmar importação': all the good lines in one transaction, or nothing. Under the clinic's enrolment lock the file
 * is checked again; if a line the preview found good is bad now (its CPF was claimed, its e-mail signed up, the plan's
 * room ran out), or the other way round, nothing is written and the clinic is told which lines changed.
 */
export async function confirmMemberImport(deps: ImportDeps, actor: ImportActor, request: ParsedConfirm): Promise<MemberImportResult> {
  const now = deps.now();
  const { plan, file } = await readRequest(deps.db, actor, request, now);
  const result = await deps.db.transaction(async (tx) => {
    await lockClinicEnrolments(tx, actor);
    const rows = await checkFile(tx, actor, file.lines, now);
    const changed = changedLines(rows, request.expectedLines);
    if (changed.length > 0) {
      throw new AppError('CONFLICT', formatMessage(t.changedSincePreview, { lines: changed.map((line) => formatMessage(t.line, { line })).join(', ') }));
    }
    const people = rows.flatMap((row) => (row.person ? [row.person] : []));
    const idOf = await insertImportedPatients(tx, actor, people, now);
    const userIds = people.flatMap((person) => idOf.get(person.email) ?? []);
    let companyMembershipId: string | null = null;
    if (request.payer === 'company' && request.validUntil !== null) {
      companyMembershipId = await insertCompanyMembership(tx, actor, { companyName: request.companyName, cnpj: request.cnpj, planId: plan.id, validUntil: request.validUntil, createdByUserId: actor.userId });
      // Valid until the end of the company's last day, São Paulo time.
      const expiresAt = new Date(saoPauloMidnight(request.validUntil).getTime() + 24 * 60 * 60 * 1000);
      await enrolByCompany({ tx, jobs: deps.jobs, now, source: 'member-import', actorUserId: actor.userId }, { clinicId: actor.clinicId, planId: plan.id, companyMembershipId, userIds, expiresAt });
    }
    await enqueueMemberInvitations(deps.jobs, tx, userIds.map((userId) => ({ userId, clinicId: actor.clinicId, companyName: request.companyName, planName: plan.name, payer: request.payer, validUntil: request.validUntil })));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'members.imported',
      entity: companyMembershipId ? 'company_membership' : 'subscription_plan',
      entityId: companyMembershipId ?? plan.id,
      clinicId: actor.clinicId,
      details: { payer: request.payer, planId: plan.id, companyName: request.companyName, cnpj: request.cnpj, validUntil: request.validUntil, lines: rows.length, imported: userIds.length, refused: rows.length - userIds.length },
    });
    return { imported: userIds.length, invited: userIds.length, companyMembershipId };
  });
  deps.jobs.kick();
  return result;
}
