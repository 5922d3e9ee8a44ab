import type { MemberDetail } from '@carteirinha/shared/contracts/members';
import { MEMBER_DETAIL_ROWS } from '@carteirinha/shared/contracts/members';
import { PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS } from '@carteirinha/shared/contracts/payments';
import { SUBSCRIPTION_STATUS_LABELS } from '@carteirinha/shared/contracts/subscriptions';
import { formatCpf, formatDate, formatDateTime, formatMoney, formatPhone } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable, type DataColumn } from '@/components/ui/data-table';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { groupCardNumber } from '@/features/cards/lib/card-format';
import { VisitStatusBadge } from '@/features/visits/components/visit-status-badge';
import { useMember } from '../api/members';
import { MemberStatusBadge } from '../components/member-status-badge';
import { CpfOwnerCard } from '@/features/profiles/components/cpf-owner-card';

const m = messages.members;
const d = m.detailColumns;
const CARDS_BELOW_PX = 640;

type Charge = MemberDetail['charges'][number];
type VisitRow = MemberDetail['visits'][number];
type Validation = MemberDetail['validations'][number];

const CHARGE_COLUMNS: DataColumn<Charge>[] = [
  { id: 'due', header: d.dueDate, cell: (charge) => formatDate(`${charge.dueDate}T12:00:00-03:00`), className: 'whitespace-nowrap tabular-nums' },
  { id: 'amount', header: d.amount, cell: (charge) => formatMoney(charge.amountCents), className: 'tabular-nums' },
  { id: 'method', header: d.method, cell: (charge) => PAYMENT_METHOD_LABELS[charge.method] },
  { id: 'status', header: m.columns.status, cell: (charge) => <Badge variant={charge.status === 'received' || charge.status === 'confirmed' ? 'default' : 'secondary'}>{PAYMENT_STATUS_LABELS[charge.status]}</Badge> },
  { id: 'paid', header: d.paidAt, cell: (charge) => (charge.paidAt ? formatDate(charge.paidAt) : '-'), className: 'whitespace-nowrap tabular-nums' },
];

const VISIT_COLUMNS: DataColumn<VisitRow>[] = [
  { id: 'when', header: d.date, cell: (visit) => formatDateTime(visit.performedAt), className: 'whitespace-nowrap tabular-nums' },
  { id: 'who', header: m.columns.name, cell: (visit) => visit.patientName },
  { id: 'service', header: d.service, cell: (visit) => visit.serviceName },
  { id: 'final', header: d.amount, cell: (visit) => formatMoney(visit.finalCents), className: 'tabular-nums' },
  { id: 'status', header: m.columns.status, cell: (visit) => <VisitStatusBadge status={visit.status} /> },
];

const VALIDATION_COLUMNS: DataColumn<Validation>[] = [
  { id: 'when', header: d.date, cell: (row) => formatDateTime(row.at), className: 'whitespace-nowrap tabular-nums' },
  { id: 'card', header: m.columns.card, cell: (row) => (row.cardNumber ? groupCardNumber(row.cardNumber) : '-'), className: 'whitespace-nowrap tabular-nums' },
  { id: 'result', header: m.columns.status, cell: (row) => <Badge variant={row.result === 'valid' ? 'default' : 'secondary'}>{m.validationResults[row.result]}</Badge> },
  { id: 'method', header: d.lookupMethod, cell: (row) => m.lookupMethods[row.method] },
  { id: 'by', header: d.validatedBy, cell: (row) => row.by ?? '-' },
];

function Section({ title, children, latest }: { title: string; children: ReactNode; latest?: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        {latest ? <CardDescription>{formatMessage(m.latest, { count: MEMBER_DETAIL_ROWS })}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate">{value}</dd>
    </div>
  );
}

function MemberSections({ member }: { member: MemberDetail }) {
  return (
    <div className="grid gap-4">
      <Section title={m.contact}>
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Fact label={d.email} value={member.email} />
          <Fact label={m.columns.cpf} value={member.cpf ? formatCpf(member.cpf) : '-'} />
          <Fact label={m.phone} value={member.phone ? formatPhone(member.phone) : '-'} />
          <Fact label={m.birthDate} value={member.birthDate ? formatDate(`${member.birthDate}T12:00:00-03:00`) : '-'} />
        </dl>
      </Section>

      <Section title={m.subscriptions}>
        {member.subscriptions.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.noneYet}</p>
        ) : (
          <ul className="grid gap-3">
            {member.subscriptions.map((subscription) => (
              <li key={subscription.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border p-3 text-sm">
                <span className="font-medium">{subscription.planName}</span>
                <Badge variant={subscription.status === 'active' ? 'default' : 'secondary'}>{SUBSCRIPTION_STATUS_LABELS[subscription.status]}</Badge>
                {subscription.amountCents !== null ? <span className="tabular-nums">{formatMoney(subscription.amountCents)}</span> : null}
                {subscription.paymentMethod ? <span>{PAYMENT_METHOD_LABELS[subscription.paymentMethod]}</span> : null}
                {subscription.startedAt ? <span className="text-muted-foreground">{formatMessage(m.subscriptionSince, { date: formatDate(subscription.startedAt) })}</span> : null}
                {subscription.canceledAt ? (
                  <span className="text-muted-foreground">{formatMessage(m.canceledOn, { date: formatDate(subscription.canceledAt) })}</span>
                ) : subscription.expiresAt ? (
                  <span className="text-muted-foreground">{formatMessage(m.subscriptionUntil, { date: formatDate(subscription.expiresAt) })}</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={m.cards}>
          {member.cards.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.noneYet}</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {member.cards.map((card) => (
                <li key={card.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
                  <span className="font-medium tabular-nums">{groupCardNumber(card.number)}</span>
                  <span>{card.personName}</span>
                  <Badge variant="outline">{card.isDependent ? m.dependentCard : m.holderCard}</Badge>
                  {card.revokedAt ? <span className="text-muted-foreground">{formatMessage(m.revoked, { date: formatDate(card.revokedAt) })}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title={m.dependents}>
          {member.dependentList.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.noneYet}</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {member.dependentList.map((dependent) => (
                <li key={dependent.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
                  <span className="font-medium">{dependent.fullName}</span>
                  <span className="tabular-nums">{dependent.cpf ? formatCpf(dependent.cpf) : '-'}</span>
                  {dependent.relationship ? <span>{dependent.relationship}</span> : null}
                  {dependent.removedAt ? <span className="text-muted-foreground">{formatMessage(m.removed, { date: formatDate(dependent.removedAt) })}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>

      <Section title={m.charges} latest>
        <DataTable rows={member.charges} rowKey={(charge) => charge.id} columns={CHARGE_COLUMNS} titleColumn="due" caption={m.charges} placeholder={member.charges.length === 0 ? m.noneYet : null} cardsBelow={CARDS_BELOW_PX} />
      </Section>
      <Section title={m.visits} latest>
        <DataTable rows={member.visits} rowKey={(visit) => visit.id} columns={VISIT_COLUMNS} titleColumn="when" caption={m.visits} placeholder={member.visits.length === 0 ? m.noneYet : null} cardsBelow={CARDS_BELOW_PX} />
      </Section>
      <Section title={m.validations} latest>
        <DataTable
          rows={member.validations}
          rowKey={(row) => `${row.at}-${row.cardNumber ?? ''}`}
          columns={VALIDATION_COLUMNS}
          titleColumn="when"
          caption={m.validations}
          placeholder={member.validations.length === 0 ? m.noneYet : null}
          cardsBelow={CARDS_BELOW_PX}
        />
      </Section>
    </div>
  );
}

/** Pacientes › a member (issue 26): everything the clinic holds of them, on the clinic's own rows. */
export function ClinicMemberPage() {
  const { userId = '' } = useParams();
  const member = useMember(userId);
  const back = (
    <Link to="/clinica/pacientes" className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
      <ArrowLeftIcon className="size-4" aria-hidden="true" />
      {m.back}
    </Link>
  );
  if (member.error) {
    return (
      <>
        {back}
        <ErrorState error={member.error} onRetry={() => void member.refetch()} retrying={member.isFetching} />
      </>
    );
  }
  if (!member.data) return <p className="text-sm text-muted-foreground">{messages.common.loading}</p>;
  return (
    <>
      {back}
      <PageHeader title={member.data.fullName} description={m.detailTitle} actions={<MemberStatusBadge member={member.data} />} />
      <MemberSections member={member.data} />
      <div className="mt-6">
        <CpfOwnerCard email={member.data.email} />
      </div>
    </>
  );
}
