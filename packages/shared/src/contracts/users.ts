import { z } from 'zod';
import { messages } from '../messages.ts';
import { ROLES, roleNeedsClinic } from '../roles.ts';

const a = messages.admin;

export const USER_STATUSES = ['active', 'disabled'] as const;
export const USER_STATUS_LABELS: Record<(typeof USER_STATUSES)[number], string> = { active: 'Ativo', disabled: 'Desativado' };

/** A row of /admin/usuarios: the real e-mail, role, clinic name, status and last sign-in. */
export const adminUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.string(),
  role: z.enum(ROLES).nullable(),
  clinicId: z.uuid().nullable(),
  clinicName: z.string().nullable(),
  /** Ativo while the user has a role; 'Desativar' removes it (and ends the sessions). */
  status: z.enum(USER_STATUSES),
  lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

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

function clinicWhenNeeded(value: { role: (typeof ROLES)[number]; clinicId?: string | null | undefined }, ctx: z.RefinementCtx) {
  if (roleNeedsClinic(value.role) && !value.clinicId) ctx.addIssue({ code: 'custom', path: ['clinicId'], message: a.clinicRequired });
}

/**
 * 'Novo Usuário': give a role to an existing user chosen by e-mail (or by a pasted user id), or invite a new e-mail
 * (an account is created and a set-password link is sent). Clinic is required for every role but admin.
 */
export const assignRoleSchema = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email(messages.validation.invalidEmail)).optional(),
    userId: z.uuid(a.invalidUserId).optional(),
    role: roleSchema,
    clinicId: z.uuid().nullish(),
  })
  .superRefine((value, ctx) => {
    if (!value.email && !value.userId) ctx.addIssue({ code: 'custom', path: ['email'], message: a.userOrEmailRequired });
    clinicWhenNeeded(value, ctx);
  });
export type AssignRoleInput = z.input<typeof assignRoleSchema>;

/** 'Alterar Permissões': role and clinic; the user cannot be changed (specification §5). */
export const updateRoleSchema = z
  .object({ role: roleSchema, clinicId: z.uuid().nullish() })
  .superRefine(clinicWhenNeeded);
export type UpdateRoleInput = z.input<typeof updateRoleSchema>;

export const assignRoleResponseSchema = z.object({ user: adminUserSchema, invited: z.boolean() });

/** 'Ver Perfil'. */
export const userProfileSchema = adminUserSchema.extend({
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  activeSessions: z.number().int(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;
