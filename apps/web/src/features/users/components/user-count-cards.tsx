import { ShieldCheckIcon, StethoscopeIcon, UserCogIcon, UserIcon, UsersIcon } from 'lucide-react';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/error-message';
import { useUserCounts } from '../api/get-user-counts';

/** The five counts of /admin/usuarios (specification §2), counted by the server over every user. */
export function UserCountCards() {
  const { data, error } = useUserCounts();
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      <StatCard title="Total de Usuários" icon={UsersIcon} value={data?.total} />
      <StatCard title="Super Admins" icon={ShieldCheckIcon} value={data?.admins} />
      <StatCard title="Admin de Clínica" icon={UserCogIcon} value={data?.clinicAdmins} />
      <StatCard title="Atendentes" icon={StethoscopeIcon} value={data?.staff} />
      <StatCard title="Pacientes" icon={UserIcon} value={data?.patients} />
    </div>
  );
}
