import { messages } from '@carteirinha/shared/messages';
import { ShieldCheckIcon, StethoscopeIcon, UserCogIcon, UserIcon, UsersIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { retryPropsOf } from '@/components/ui/error-state';
import { useUserCounts } from '../api/get-user-counts';

const t = messages.adminUsers.counts;

/** The five counts of /admin/usuarios (specification §2), counted by the server over every user. */
export function UserCountCards() {
  const counts = useUserCounts();
  const { data } = counts;
  return (
    // Two across on a phone, so the five figures fit on one screen; one row on a wide screen.
    <StatCardGrid {...retryPropsOf(counts)} className="grid-cols-2 lg:grid-cols-5">
      <StatCard title={t.total} icon={UsersIcon} value={data?.total} />
      <StatCard title={t.admins} icon={ShieldCheckIcon} value={data?.admins} />
      <StatCard title={t.clinicAdmins} icon={UserCogIcon} value={data?.clinicAdmins} />
      <StatCard title={t.staff} icon={StethoscopeIcon} value={data?.staff} />
      <StatCard title={t.patients} icon={UserIcon} value={data?.patients} />
    </StatCardGrid>
  );
}
