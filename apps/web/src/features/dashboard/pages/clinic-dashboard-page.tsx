import { messages } from '@carteirinha/shared/messages';
import { roleHasPermission } from '@carteirinha/shared/permissions';
import { useMe } from '@/app/session';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { ClinicAdminDashboard } from '../components/clinic-admin-dashboard';
import { ClinicStaffDashboard } from '../components/clinic-staff-dashboard';

const d = messages.clinicDashboard;

/**
 * /clinica: the clinic admin's figures, first steps and charts; the desk's (clinic_staff) page is the validation box
 * and today's visits — the money figures are the admin's, and the server refuses them to the desk too.
 */
export function ClinicDashboardPage() {
  const { data: me } = useMe();
  if (!me?.role) return <Spinner className="self-center" />;
  if (!roleHasPermission(me.role, 'clinic:manage')) {
    return (
      <>
        <PageHeader title={d.title} description={d.staffDescription} />
        <ClinicStaffDashboard />
      </>
    );
  }
  return (
    <>
      <PageHeader title={d.title} description={d.description} />
      <ClinicAdminDashboard />
    </>
  );
}
