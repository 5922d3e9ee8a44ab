import type { Service } from '@carteirinha/shared/contracts/services';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/error-message';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';
import { useServices } from '../api/list-services';
import { useRestoreService } from '../api/save-service';
import { ServicesTable } from '../components/services-table';

// The form, the deletion and the history load when their dialog first opens.
const ServiceFormDialog = lazyComponent(() => import('../components/service-form-dialog'), (module) => module.ServiceFormDialog);
const DeleteServiceDialog = lazyComponent(() => import('../components/delete-service-dialog'), (module) => module.DeleteServiceDialog);
const PriceHistoryDialog = lazyComponent(() => import('../components/price-history-dialog'), (module) => module.PriceHistoryDialog);

const m = messages.services;

type OpenDialog =
  | { kind: 'none' }
  | { kind: 'form'; service: Service | null }
  | { kind: 'delete'; service: Service }
  | { kind: 'history'; service: Service };

/**
 * Serviços (issue 25): the clinic's price list — name, category, full price and the card price under each plan on
 * sale — with its create, edit, delete (archive when used) and each service's price history.
 */
export function ClinicServicesPage() {
  const services = useServices();
  const restoreService = useRestoreService();
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  const restore = (service: Service) =>
    restoreService.mutate(service.id, {
      onSuccess: () => toast.success(m.restored),
      onError: (error) => {
        console.warn('Falha ao reativar o serviço', error);
        toast.error(formatMessage(m.saveError, { message: errorMessage(error) }));
      },
    });

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <Button onClick={() => setDialog({ kind: 'form', service: null })}>
            <PlusIcon aria-hidden="true" />
            {m.add}
          </Button>
        }
      />

      <ServicesTable
        services={services.data}
        error={services.error}
        onRetry={() => void services.refetch()}
        busy={services.isFetching || restoreService.isPending}
        actions={{
          onEdit: (service) => setDialog({ kind: 'form', service }),
          onHistory: (service) => setDialog({ kind: 'history', service }),
          onDelete: (service) => setDialog({ kind: 'delete', service }),
          onRestore: restore,
        }}
      />

      <LoadWhenOpen open={dialog.kind === 'form'}>
        <ServiceFormDialog open={dialog.kind === 'form'} onOpenChange={(open) => (open ? undefined : closeDialog())} service={dialog.kind === 'form' ? dialog.service : null} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog.kind === 'delete'}>
        <DeleteServiceDialog service={dialog.kind === 'delete' ? dialog.service : null} onClose={closeDialog} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog.kind === 'history'}>
        <PriceHistoryDialog service={dialog.kind === 'history' ? dialog.service : null} onClose={closeDialog} />
      </LoadWhenOpen>
    </>
  );
}
