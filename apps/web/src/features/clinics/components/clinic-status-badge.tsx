import { CLINIC_STATUS_LABELS, type ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import { Badge } from '@/components/ui/badge';

/** Specification §4: active default, trial secondary, the others destructive. */
function clinicStatusVariant(status: ClinicStatus): 'default' | 'secondary' | 'destructive' {
  switch (status) {
    case 'active':
      return 'default';
    case 'trial':
      return 'secondary';
    case 'suspended':
    case 'cancelled':
      return 'destructive';
  }
}

export function ClinicStatusBadge({ status }: { status: ClinicStatus }) {
  return <Badge variant={clinicStatusVariant(status)}>{CLINIC_STATUS_LABELS[status]}</Badge>;
}
