import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PencilIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { useClinicPlans } from '../api/list-clinic-plans';

const p = messages.clinicPlans;

function cycleSuffix(plan: SubscriptionPlan): string {
  return plan.billingCycle === 'monthly' ? messages.subscriptionPage.perMonth : messages.subscriptionPage.perYear;
}

function columnsOf(onEdit: (plan: SubscriptionPlan) => void): DataColumn<SubscriptionPlan>[] {
  return [
    { id: 'plan', header: p.columnPlan, cell: (plan) => plan.name, className: 'font-medium' },
    { id: 'price', header: p.columnPrice, align: 'right', className: 'whitespace-nowrap', cell: (plan) => `${formatMoney(plan.priceCents)}${cycleSuffix(plan)}` },
    { id: 'members', header: p.columnMembers, align: 'right', cell: (plan) => plan.maxMembers },
    { id: 'discounts', header: p.columnDiscounts, className: 'min-w-48', cell: (plan) => formatMessage(p.discountsShort, plan.discounts) },
    {
      id: 'waiting',
      header: p.columnWaiting,
      className: 'whitespace-nowrap',
      cell: (plan) => (plan.waitingDays === 0 ? p.noWaiting : formatMessage(p.waitingDaysValue, { days: plan.waitingDays })),
    },
    { id: 'status', header: p.columnStatus, cell: (plan) => <Badge variant={plan.isActive ? 'default' : 'secondary'}>{plan.isActive ? p.active : p.inactive}</Badge> },
    {
      id: 'actions',
      header: p.columnActions,
      headerHidden: true,
      align: 'right',
      cell: (plan) => (
        <Button type="button" variant="ghost" size="icon" aria-label={formatMessage(p.edit, { name: plan.name })} onClick={() => onEdit(plan)}>
          <PencilIcon aria-hidden="true" />
        </Button>
      ),
      // On a card there is room for the word, which a finger finds more easily than an icon.
      cardCell: (plan) => (
        <Button type="button" variant="outline" size="sm" aria-label={formatMessage(p.edit, { name: plan.name })} onClick={() => onEdit(plan)}>
          <PencilIcon aria-hidden="true" />
          {messages.common.edit}
        </Button>
      ),
    },
  ];
}

/** The clinic's patient plans, active or not, each with 'Editar'. */
export function ClinicPlansTable({ onEdit }: { onEdit: (plan: SubscriptionPlan) => void }) {
  const plans = useClinicPlans();
  return (
    <DataTable
      rows={plans.data}
      rowKey={(plan) => plan.id}
      columns={columnsOf(onEdit)}
      titleColumn="plan"
      actionsColumn="actions"
      caption={p.plansCaption}
      placeholder={rowsPlaceholder({ rows: plans.data, error: plans.error, onRetry: () => void plans.refetch(), retrying: plans.isFetching, emptyText: p.noPlans })}
    />
  );
}
