import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { messages } from '@carteirinha/shared/messages';
import { PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { UnsavedChangesGuard } from '@/components/ui/unsaved-changes-guard';
import { BillingSection } from '../components/billing-section';
import { ClinicPlanFormDialog } from '../components/clinic-plan-form-dialog';
import { ClinicPlansTable } from '../components/clinic-plans-table';
import { TermsSection } from '../components/terms-section';
import { useDirtyParts } from '../lib/use-dirty-parts';

const p = messages.clinicPlans;

/** /clinica/planos (issue 14, clinic_admin): the patient plans, the contract terms and the billing settings. */
export function ClinicPlansPage() {
  const [dialog, setDialog] = useState<{ plan: SubscriptionPlan | null } | null>(null);
  const { anyDirty, reporter } = useDirtyParts();
  // One reporter per form, kept across renders so the forms' effects do not run again for nothing.
  const reports = useMemo(() => ({ plan: reporter('plan'), terms: reporter('terms'), billing: reporter('billing') }), [reporter]);

  return (
    <>
      <UnsavedChangesGuard when={anyDirty} />
      <PageHeader
        title={p.title}
        description={p.description}
        actions={
          <Button type="button" onClick={() => setDialog({ plan: null })}>
            <PlusIcon aria-hidden="true" />
            {p.newPlan}
          </Button>
        }
      />
      <ClinicPlansTable onEdit={(plan) => setDialog({ plan })} />
      <TermsSection onDirtyChange={reports.terms} />
      <BillingSection onDirtyChange={reports.billing} />
      <ClinicPlanFormDialog
        open={dialog !== null}
        plan={dialog?.plan ?? null}
        onDirtyChange={reports.plan}
        onOpenChange={(open) => {
          if (!open) setDialog(null);
        }}
      />
    </>
  );
}
