import type { AdminUser } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { EllipsisIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

const m = messages.userRoles;
const u = messages.adminUsers;

export type UserRowActions = {
  onViewProfile: (user: AdminUser) => void;
  onChangeRole: (user: AdminUser) => void;
  onResendInvitation: (user: AdminUser) => void;
  onDeactivate: (user: AdminUser) => void;
};

/** A user's row menu on /admin/usuarios: Ver Perfil, Alterar Função, resend the invitation, Desativar. Loaded on first use. */
export function UserRowMenu({ user, isSelf, actions, defaultOpen = false }: { user: AdminUser; isSelf: boolean; actions: UserRowActions; defaultOpen?: boolean }) {
  // Not modal: a modal menu that opens a dialog can leave the page unclickable when both close.
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={formatMessage(m.rowActions, { email: user.email })}>
          <EllipsisIcon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => actions.onViewProfile(user)}>{m.viewProfile}</DropdownMenuItem>
        {/* An admin cannot change or deactivate their own account (the server refuses it too). */}
        {isSelf ? null : (
          <>
            <DropdownMenuItem onSelect={() => actions.onChangeRole(user)}>{m.changeRole}</DropdownMenuItem>
            {user.invitationPending && user.role ? (
              <DropdownMenuItem onSelect={() => actions.onResendInvitation(user)}>{u.resendInvitation}</DropdownMenuItem>
            ) : null}
            <DropdownMenuSeparator />
            {/* A closed account has nothing left to close; 'Novo Usuário' reopens it. */}
            <DropdownMenuItem variant="destructive" disabled={user.status === 'disabled'} onSelect={() => actions.onDeactivate(user)}>
              {m.deactivate}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
