import type { PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { messages } from '@carteirinha/shared/messages';
import { PackageIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { usePlans } from '../api/list-plans';
import { DeletePlanDialog } from '../components/delete-plan-dialog';
import { PlanCard } from '../components/plan-card';
import { PlanComparisonTable } from '../components/plan-comparison-table';
import { PlanFormDialog } from '../components/plan-form-dialog';
import { PlanSummaryCards } from '../components/plan-summary-cards';

type OpenDialog = { kind: 'none' } | { kind: 'form'; plan: PlatformPlanRecord | null } | { kind: 'delete'; plan: PlatformPlanRecord };

function PlansContent({ onEdit, onDelete }: { onEdit: (plan: PlatformPlanRecord) => void; onDelete: (plan: PlatformPlanRecord) => void }) {
  const query = usePlans();
  const { data: plans, error, isPending } = query;
  if (isPending) {
    return <CenteredSpinner />;
  }
  if (error) {
    return <ErrorState {...retryPropsOf(query)} />;
  }
  if (plans.length === 0) return <EmptyState icon={PackageIcon} title={messages.common.noData} />;
  return (
    <>
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </div>
      <PlanComparisonTable plans={plans} />
    </>
  );
}

export function AdminPlansPage() {
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  return (
    <>
      <PageHeader
        title={messages.adminPlans.title}
        description={messages.adminPlans.description}
        actions={
          <Button onClick={() => setDialog({ kind: 'form', plan: null })}>
            <PlusIcon aria-hidden="true" />
            {messages.adminPlans.newPlan}
          </Button>
        }
      />
      <PlanSummaryCards />
      <PlansContent onEdit={(plan) => setDialog({ kind: 'form', plan })} onDelete={(plan) => setDialog({ kind: 'delete', plan })} />

      <PlanFormDialog
        open={dialog.kind === 'form'}
        onOpenChange={(open) => (open ? undefined : closeDialog())}
        plan={dialog.kind === 'form' ? dialog.plan : null}
      />
      <DeletePlanDialog plan={dialog.kind === 'delete' ? dialog.plan : null} onClose={closeDialog} />
    </>
  );
}
