import { messages } from '@carteirinha/shared/messages';
import { ShieldCheckIcon } from 'lucide-react';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { DependentsSection } from '@/features/dependents/components/dependents-section';
import { useMySubscription } from '@/features/subscriptions/api/get-my-subscription';
import { lazyComponent } from '@/lib/lazy-component';
import { useMyProfile } from '../api/get-my-profile';
import { PlanPaymentCard } from '../components/plan-payment-card';
import { ProfileForm } from '../components/profile-form';
import { ProfilePhoto } from '../components/profile-photo';

const p = messages.patientProfile;
// The push switch and what it needs load after the page (issue 29): most visits never touch it.
const NotificationsCard = lazyComponent(() => import('@/features/push/components/notifications-card'), (m) => m.NotificationsCard);

/** Meu Perfil: the photo, the personal data form, the dependents, and the plan and payment of the subscription. */
export function PatientProfilePage() {
  const profile = useMyProfile();
  const subscription = useMySubscription();
  return (
    <>
      <PageHeader title={p.title} description={p.description} />
      {profile.error ? <ErrorState error={profile.error} onRetry={() => void profile.refetch()} /> : null}
      {profile.isPending ? <Spinner /> : null}
      {profile.data ? (
        <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
          <div className="grid content-start gap-6">
            <ProfilePhoto profile={profile.data} />
            <ProfileForm profile={profile.data} />
            <DependentsSection />
          </div>
          <div className="grid content-start gap-6">
            {subscription.isPending ? <Spinner /> : <PlanPaymentCard subscription={subscription.data ?? null} />}
            <Suspense fallback={<Spinner />}>
              <NotificationsCard />
            </Suspense>
            {/* The LGPD's rights (a copy of the data, who looked, deletion) live on a page of their own. */}
            <Link to="/paciente/meus-dados" className="inline-flex items-center gap-2 text-sm font-medium text-primary-text underline-offset-4 hover:underline">
              <ShieldCheckIcon aria-hidden className="size-4" />
              {p.myDataLink}
            </Link>
          </div>
        </div>
      ) : null}
    </>
  );
}
