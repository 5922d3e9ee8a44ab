import { VISIT_STATUS_LABELS, type VisitStatus } from '@carteirinha/shared/contracts/visits';
import { Badge } from '@/components/ui/badge';

/** Concluído reads as done; Aguardando and Em andamento as still open; Cancelado as called off. */
const VARIANTS: Record<VisitStatus, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  concluido: 'default',
  em_andamento: 'secondary',
  aguardando: 'outline',
  cancelado: 'destructive',
};

export function VisitStatusBadge({ status }: { status: VisitStatus }) {
  return <Badge variant={VARIANTS[status]}>{VISIT_STATUS_LABELS[status]}</Badge>;
}
