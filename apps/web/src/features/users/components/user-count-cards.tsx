import { ShieldCheckIcon, StethoscopeIcon, UserCogIcon, UserIcon, UsersIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { useUserCounts } from '../api/get-user-counts';

/** The five counts of /admin/usuarios (specification §2), counted by the server over every user. */
export function UserCountCards() {
  const { data, error } = useUserCounts();
  return (
    <StatCardGrid error={error} className="sm:grid-cols-2 lg:grid-cols-5">
      <StatCard title="Total de Usuários" icon={UsersIcon} value={data?.total} />
      <StatCard title="Super Admins" icon={ShieldCheckIcon} value={data?.admins} />
      <StatCard title="Admin de Clínica" icon={UserCogIcon} value={data?.clinicAdmins} />
      <StatCard title="Atendentes" icon={StethoscopeIcon} value={data?.staff} />
      <StatCard title="Pacientes" icon={UserIcon} value={data?.patients} />
    </StatCardGrid>
  );
}
