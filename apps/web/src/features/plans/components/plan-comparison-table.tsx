import type { PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { CheckIcon, MinusIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { distinctFeatures, planLimitLabel } from '../lib/plan-labels';

function Included({ included }: { included: boolean }) {
  return included ? (
    <>
      <CheckIcon aria-hidden="true" className="mx-auto size-4 text-primary" />
      <span className="sr-only">Sim</span>
    </>
  ) : (
    <>
      <MinusIcon aria-hidden="true" className="mx-auto size-4 text-muted-foreground" />
      <span className="sr-only">Não</span>
    </>
  );
}

/**
 * The comparison of specification §9, built from the plans themselves: the two limits, then one row per feature
 * that any plan offers.
 */
export function PlanComparisonTable({ plans }: { plans: readonly PlatformPlanRecord[] }) {
  const features = distinctFeatures(plans);
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2>Comparativo de Planos</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Table>
          <TableCaption className="sr-only">Comparativo de recursos e limites dos planos</TableCaption>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead scope="col">Recurso</TableHead>
              {plans.map((plan) => (
                <TableHead key={plan.id} scope="col" className="text-center">
                  {plan.name}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            <TableRow>
              <TableHead scope="row" className="font-normal text-foreground">
                Limite de pacientes
              </TableHead>
              {plans.map((plan) => (
                <TableCell key={plan.id} className="text-center tabular-nums">
                  {planLimitLabel(plan.maxPatients)}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableHead scope="row" className="font-normal text-foreground">
                Clínicas parceiras
              </TableHead>
              {plans.map((plan) => (
                <TableCell key={plan.id} className="text-center tabular-nums">
                  {planLimitLabel(plan.maxClinics)}
                </TableCell>
              ))}
            </TableRow>
            {features.map((feature) => (
              <TableRow key={feature}>
                <TableHead scope="row" className="font-normal whitespace-normal text-foreground">
                  {feature}
                </TableHead>
                {plans.map((plan) => (
                  <TableCell key={plan.id} className="text-center">
                    <Included included={plan.features.includes(feature)} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
