import { z } from 'zod';
import { formatMessage, messages } from '../messages.ts';
import { cnpjSchema } from '../validators.ts';
import { calendarDaySchema } from './reports.ts';

/**
 * 'Importar CSV' (issue 26): a company enrols its employees in the clinic's programme. The file is sent as it was saved
 * (UTF-8, or Windows-1252 as Excel pt-BR saves it), base64-encoded, and read on the server: the preview and the
 * confirmation read the same bytes with the same rules.
 */
export const MEMBER_IMPORT_MAX_ROWS = 2000;
export const MEMBER_IMPORT_MAX_BYTES = 1024 * 1024;
/** Base64 of MEMBER_IMPORT_MAX_BYTES: four characters per three bytes. */
const MAX_BASE64_LENGTH = Math.ceil(MEMBER_IMPORT_MAX_BYTES / 3) * 4;

/** Who pays: each person subscribes and pays on the clinic's site, or the company pays the clinic directly. */
export const MEMBER_IMPORT_PAYERS = ['person', 'company'] as const;
export type MemberImportPayer = (typeof MEMBER_IMPORT_PAYERS)[number];

const t = messages.memberImport;

/** The preview and the confirmation take the same fields: the plan, who pays, the company and the file. */
export const memberImportRequestSchema = z
  .object({
    planId: z.uuid(t.planRequired),
    payer: z.enum(MEMBER_IMPORT_PAYERS),
    companyName: z.string().trim().min(2, t.companyNameRequired).max(160, t.companyNameRequired),
    cnpj: cnpjSchema,
    /** The last São Paulo day the company pays for (required when the company pays). */
    validUntil: calendarDaySchema.nullable(),
    fileBase64: z.base64(t.fileUnreadable).max(MAX_BASE64_LENGTH, formatMessage(t.fileTooLarge, { rows: MEMBER_IMPORT_MAX_ROWS })),
  })
  .refine((input) => input.payer === 'person' || input.validUntil !== null, { path: ['validUntil'], message: t.validUntilRequired });
export type MemberImportRequest = z.input<typeof memberImportRequestSchema>;

/** One line of the file as read, with what is wrong with it (empty: it will be imported). */
export const memberImportRowSchema = z.object({
  /** The line of the file (the header is line 1), as a spreadsheet numbers it. */
  line: z.number().int(),
  fullName: z.string(),
  cpf: z.string(),
  email: z.string(),
  birthDate: z.string().nullable(),
  phone: z.string().nullable(),
  errors: z.array(z.string()),
});
export type MemberImportRow = z.infer<typeof memberImportRowSchema>;

export const memberImportPreviewSchema = z.object({
  rows: z.array(memberImportRowSchema),
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  /** How the file was read, so the clinic can tell a mis-saved file. */
  encoding: z.enum(['utf-8', 'windows-1252']),
  delimiter: z.enum([';', ',']),
});
export type MemberImportPreview = z.infer<typeof memberImportPreviewSchema>;

/** 'Confirmar importação': the same request plus the lines the preview found good, which the server must find again. */
export const memberImportConfirmSchema = memberImportRequestSchema.safeExtend({
  expectedLines: z.array(z.number().int().min(2)).min(1, t.nothingToImport).max(MEMBER_IMPORT_MAX_ROWS),
});
export type MemberImportConfirm = z.input<typeof memberImportConfirmSchema>;

export const memberImportResultSchema = z.object({
  imported: z.number().int(),
  /** Each-pays: invitations e-mailed (by a job, after the commit). */
  invited: z.number().int(),
  /** Company-paid: the membership recorded. */
  companyMembershipId: z.uuid().nullable(),
});
export type MemberImportResult = z.infer<typeof memberImportResultSchema>;
