import { z } from 'zod';
import { messages } from '../messages.ts';
import { ROLES, roleNeedsClinic } from '../roles.ts';

const a = messages.admin;

/** `invited`: the account was invited and no password was set yet — it cannot sign in until the link is used. */
export const USER_STATUSES = ['active', 'invited', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_STATUS_LABELS: Record<UserStatus, string> = { active: 'Ativo', invited: 'Convite pendente', disabled: 'Desativado' };

/** A row of /admin/usuarios: the real e-mail, role, clinic name, status and last sign-in. */
export const adminUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.string(),
  role: z.enum(ROLES).nullable(),
  clinicId: z.uuid().nullable(),
  clinicName: z.string().nullable(),
  /**
   * 'Desativado' once 'Desativar' was used (the account cannot sign in), until a role is given again; 'Convite
   * pendente' while an invited person has not set a password; otherwise 'Ativo'.
   */
  status: z.enum(USER_STATUSES),
  /** The last sign-in that completed (second factor included); null if the person never signed in. */
  lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  /** Invited and has not set a password yet: 'Reenviar convite' is offered. */
  invitationPending: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/**
 * GET /api/public/invitation?token=: what the "Aceitar convite" page greets the invited person with — the address the
 * account is for, the role given and the clinic (null for a platform role). Only the link's holder has the token.
 */
export const invitationPreviewQuerySchema = z.object({ token: z.string().min(1).max(200) });
export const invitationPreviewSchema = z.object({
  email: z.string(),
  role: z.enum(ROLES).nullable(),
  clinicName: z.string().nullable(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** The five count cards of /admin/usuarios. */
export const userCountsSchema = z.object({
  total: z.number().int(),
  admins: z.number().int(),
  clinicAdmins: z.number().int(),
  staff: z.number().int(),
  patients: z.number().int(),
});
export type UserCounts = z.infer<typeof userCountsSchema>;

const roleSchema = z.enum(ROLES, { error: a.roleRequired });
const userIdSchema = z.uuid(a.invalidUserId);
const inviteEmailSchema = z.string().trim().toLowerCase().pipe(z.email(messages.validation.invalidEmail));

function clinicWhenNeeded(value: { role: (typeof ROLES)[number]; clinicId?: string | null | undefined }, ctx: z.RefinementCtx) {
  if (roleNeedsClinic(value.role) && !value.clinicId) ctx.addIssue({ code: 'custom', path: ['clinicId'], message: a.clinicRequired });
}

/**
 * 'Novo Usuário': give a role to an existing user chosen by e-mail (or by a pasted user id), or invite a new e-mail
 * (an account is created and a set-password link is sent). Clinic is required for every role but admin.
 */
export const assignRoleSchema = z
  .object({
    email: inviteEmailSchema.optional(),
    userId: userIdSchema.optional(),
    role: roleSchema,
    clinicId: z.uuid().nullish(),
  })
  .superRefine((value, ctx) => {
    if (!value.email && !value.userId) ctx.addIssue({ code: 'custom', path: ['email'], message: a.userOrEmailRequired });
    clinicWhenNeeded(value, ctx);
  });
export type AssignRoleInput = z.input<typeof assignRoleSchema>;
export type AssignRoleOutput = z.output<typeof assignRoleSchema>;

/**
 * The one field of 'Novo Usuário' names the person by "e-mail ou ID do usuário": text with an '@' is an e-mail,
 * anything else is taken for a user id (and must then be a UUID, specification §5).
 */
export function userReferenceOf(text: string): { email?: string; userId?: string } {
  const typed = text.trim();
  if (typed === '') return {};
  return typed.includes('@') ? { email: typed } : { userId: typed };
}

/**
 * The 'Novo Usuário' / 'Editar Usuário' form: the person in one text field, then role and clinic. It is checked by
 * `assignRoleSchema` itself — what the API will receive — with the e-mail's and the id's messages shown on the one
 * field, so the form and the server can never disagree.
 */
export const assignRoleFormSchema = z
  .object({ user: z.string(), role: roleSchema, clinicId: z.uuid().nullish() })
  .transform(({ user, role, clinicId }, ctx) => {
    const parsed = assignRoleSchema.safeParse({ ...userReferenceOf(user), role, clinicId });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const onPerson = issue.path[0] === 'email' || issue.path[0] === 'userId';
      ctx.addIssue({ code: 'custom', path: onPerson ? ['user'] : issue.path, message: issue.message });
    }
    return z.NEVER;
  });
export type AssignRoleFormInput = z.input<typeof assignRoleFormSchema>;

/** 'Alterar Permissões': role and clinic; the user cannot be changed (specification §5). */
export const updateRoleSchema = z
  .object({ role: roleSchema, clinicId: z.uuid().nullish() })
  .superRefine(clinicWhenNeeded);
export type UpdateRoleInput = z.input<typeof updateRoleSchema>;

/**
 * `invited`: a set-password link was e-mailed. `unverifiedAccount`: the address already had an account whose owner
 * never confirmed it, so it was invited rather than given the role with the password someone chose (ADR 006).
 */
export const assignRoleResponseSchema = z.object({ user: adminUserSchema, invited: z.boolean(), unverifiedAccount: z.boolean() });

/** 'Ver Perfil'. */
export const userProfileSchema = adminUserSchema.extend({
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  activeSessions: z.number().int(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** The roles a clinic gives its own people in Equipe (issue 25): Admin de Clínica or Atendente. */
export const TEAM_ROLES = ['clinic_admin', 'clinic_staff'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
const teamRoleSchema = z.enum(TEAM_ROLES, { error: messages.team.roleInvalid });

/** A person of the clinic's team, as Equipe lists them. */
export const teamMemberSchema = z.object({
  userId: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  /** 'invited' while the person has not created a password with the link. */
  status: z.enum(['active', 'invited']),
  lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  /** The caller: the screen says '(você)' and offers no removal that would lock the clinic out. */
  isSelf: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamListSchema = z.object({ items: z.array(teamMemberSchema) });

/** POST /api/clinic/team: invite an e-mail as Admin de Clínica or Atendente of the caller's clinic. */
export const teamInvitationSchema = z.object({ email: inviteEmailSchema, role: teamRoleSchema });
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

/** PUT /api/clinic/team/:userId/role. */
export const teamRoleChangeSchema = z.object({ role: teamRoleSchema });
export type TeamRoleChange = z.infer<typeof teamRoleChangeSchema>;
