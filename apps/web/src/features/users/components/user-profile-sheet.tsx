import { USER_STATUS_LABELS } from '@carteirinha/shared/contracts/users';
import { formatDateTime, formatPhone } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS } from '@carteirinha/shared/roles';
import type { ReactNode } from 'react';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { useUserProfile } from '../api/get-user-profile';

const p = messages.adminUsers.profile;
const c = messages.adminUsers.columns;

type UserProfileSheetProps = {
  /** Whose profile to show; null keeps the panel closed. */
  userId: string | null;
  onClose: () => void;
};

/** 'Ver Perfil': who the user is, what they may do and when they last came in, read from the server. */
export function UserProfileSheet({ userId, onClose }: UserProfileSheetProps) {
  return (
    <Sheet open={userId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full overflow-y-auto p-6 sm:max-w-md">
        <SheetTitle className="text-lg">{messages.userRoles.profileTitle}</SheetTitle>
        <ProfileDetails userId={userId} />
      </SheetContent>
    </Sheet>
  );
}

function ProfileDetails({ userId }: { userId: string | null }) {
  const query = useUserProfile(userId);
  const { data: profile, error, isPending } = query;

  if (isPending) {
    return (
      <>
        <SheetDescription className="sr-only">{messages.common.loading}</SheetDescription>
        <Spinner className="self-center py-8" />
      </>
    );
  }
  if (error) {
    return (
      <>
        <SheetDescription className="sr-only">{messages.common.loadErrorTitle}</SheetDescription>
        <ErrorState variant="inline" {...retryPropsOf(query)} />
      </>
    );
  }

  return (
    <>
      <SheetDescription>{profile.email}</SheetDescription>
      <dl className="grid gap-4 text-sm">
        <Detail term={p.name}>{profile.fullName || '-'}</Detail>
        <Detail term={c.email}>
          {profile.email} {profile.emailVerified ? p.emailConfirmed : p.emailNotConfirmed}
        </Detail>
        <Detail term={p.phone}>{profile.phone ? formatPhone(profile.phone) : '-'}</Detail>
        <Detail term={c.role}>{profile.role ? ROLE_LABELS[profile.role] : '-'}</Detail>
        <Detail term={c.clinic}>{profile.clinicName ?? '-'}</Detail>
        <Detail term={c.status}>
          {USER_STATUS_LABELS[profile.status]}
          {profile.invitationPending ? ` (${messages.adminUsers.invitationPending})` : null}
        </Detail>
        <Detail term={c.lastSignIn}>{profile.lastSignInAt ? formatDateTime(profile.lastSignInAt) : '-'}</Detail>
        <Detail term={p.activeSessions}>{profile.activeSessions}</Detail>
        <Detail term={p.createdAt}>{formatDateTime(profile.createdAt)}</Detail>
      </dl>
    </>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}
