import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PencilIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from '@/components/ui/table';
import { useClinicPlans } from '../api/list-clinic-plans';

const p = messages.clinicPlans;
const COLUMNS = 7;

function cycleSuffix(plan: SubscriptionPlan): string {
  return plan.billingCycle === 'monthly' ? messages.subscriptionPage.perMonth : messages.subscriptionPage.perYear;
}

/** The clinic's patient plans, active or not, each with 'Editar'. */
export function ClinicPlansTable({ onEdit }: { onEdit: (plan: SubscriptionPlan) => void }) {
  const plans = useClinicPlans();
  return (
    <div className="rounded-md border">
      <Table>
        <TableCaption className="sr-only">{p.plansCaption}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{p.columnPlan}</TableHead>
            <TableHead className="text-right">{p.columnPrice}</TableHead>
            <TableHead className="text-right">{p.columnMembers}</TableHead>
            <TableHead>{p.columnDiscounts}</TableHead>
            <TableHead>{p.columnWaiting}</TableHead>
            <TableHead>{p.columnStatus}</TableHead>
            <TableHead>
              <span className="sr-only">{p.columnActions}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {plans.isPending ? (
            <TableMessageRow colSpan={COLUMNS}>{messages.common.loading}</TableMessageRow>
          ) : plans.isError ? (
            <TableMessageRow colSpan={COLUMNS}>
              <ErrorState variant="inline" {...retryPropsOf(plans)} />
            </TableMessageRow>
          ) : plans.data.length === 0 ? (
            <TableMessageRow colSpan={COLUMNS}>{p.noPlans}</TableMessageRow>
          ) : (
            plans.data.map((plan) => (
              <TableRow key={plan.id}>
                <TableCell className="font-medium">{plan.name}</TableCell>
                <TableCell className="text-right whitespace-nowrap">
                  {formatMoney(plan.priceCents)}
                  {cycleSuffix(plan)}
                </TableCell>
                <TableCell className="text-right">{plan.maxMembers}</TableCell>
                <TableCell className="min-w-48">{formatMessage(p.discountsShort, plan.discounts)}</TableCell>
                <TableCell className="whitespace-nowrap">
                  {plan.waitingDays === 0 ? p.noWaiting : formatMessage(p.waitingDaysValue, { days: plan.waitingDays })}
                </TableCell>
                <TableCell>
                  <Badge variant={plan.isActive ? 'default' : 'secondary'}>{plan.isActive ? p.active : p.inactive}</Badge>
                </TableCell>
                <TableCell className="text-right">
                  <Button type="button" variant="ghost" size="icon" aria-label={formatMessage(p.edit, { name: plan.name })} onClick={() => onEdit(plan)}>
                    <PencilIcon aria-hidden="true" />
                  </Button>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </div>
  );
}
