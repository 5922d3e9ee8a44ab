import { DEPENDENT_RELATIONSHIP_LABELS, type Dependent, type DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { formatCpf, formatIsoDay } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { IdCardIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { SectionCard } from '@/components/ui/section-card';
import { Spinner } from '@/components/ui/spinner';
import { useMyDependents } from '../api/dependents';

// The dialogs (and their form code) load when first opened: Meu Perfil stays within the patient portal's budget.
const DependentFormDialog = lazy(() => import('./dependent-form-dialog').then((module) => ({ default: module.DependentFormDialog })));
const RemoveDependentDialog = lazy(() => import('./remove-dependent-dialog').then((module) => ({ default: module.RemoveDependentDialog })));

const m = messages.dependents;

/** Why 'Adicionar' is not offered, in the patient's words (the limit says what to do about it). */
function blockedText(overview: DependentsOverview): string | null {
  if (overview.addBlockedBy === 'noSubscription') return m.noSubscription;
  if (overview.addBlockedBy !== 'limitReached') return null;
  return overview.maxDependents === 0 ? m.planHasNoDependents : formatMessage(m.limitReached, { max: overview.maxDependents });
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

/** One dependent as a card (a phone shows every value): who, their card, and the actions. */
function DependentItem({ dependent, onEdit, onRemove }: { dependent: Dependent; onEdit: () => void; onRemove: () => void }) {
  return (
    <li className="grid gap-3 rounded-lg border p-4" data-testid="dependent-item">
      <div>
        <p className="font-semibold">{dependent.fullName}</p>
        {dependent.relationship ? <p className="text-sm text-muted-foreground">{DEPENDENT_RELATIONSHIP_LABELS[dependent.relationship]}</p> : null}
      </div>
      <dl className="grid gap-1 text-sm">
        <Fact label={m.cpf} value={dependent.cpf ? formatCpf(dependent.cpf) : '-'} />
        <Fact label={m.birthDate} value={dependent.birthDate ? formatIsoDay(dependent.birthDate) : '-'} />
        <Fact label={m.cardNumber} value={dependent.cardNumber ? `•••• ${dependent.cardNumber.slice(-4)}` : m.cardPending} />
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={`/paciente/cartao?pessoa=${encodeURIComponent(dependent.id)}`}>
            <IdCardIcon aria-hidden="true" />
            {m.seeCard}
          </Link>
        </Button>
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`${m.edit} ${dependent.fullName}`}>
          <PencilIcon aria-hidden="true" />
          {m.edit}
        </Button>
        <Button variant="outline" size="sm" onClick={onRemove} aria-label={`${m.remove} ${dependent.fullName}`}>
          <Trash2Icon aria-hidden="true" />
          {m.remove}
        </Button>
      </div>
    </li>
  );
}

function DependentsBody({ overview }: { overview: DependentsOverview }) {
  const [editing, setEditing] = useState<{ dependent: Dependent | null } | null>(null);
  const [removing, setRemoving] = useState<Dependent | null>(null);
  const blocked = blockedText(overview);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" data-testid="dependents-room">
          {formatMessage(m.room, { count: overview.items.length, max: overview.maxDependents })}
        </p>
        {overview.addBlockedBy === null ? (
          <Button onClick={() => setEditing({ dependent: null })}>
            <PlusIcon aria-hidden="true" />
            {m.add}
          </Button>
        ) : null}
      </div>
      {blocked ? (
        <p role="note" className="rounded-md border border-dashed p-3 text-sm" data-testid="dependents-blocked">
          {blocked}
        </p>
      ) : null}
      {overview.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.none}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {overview.items.map((dependent) => (
            <DependentItem key={dependent.id} dependent={dependent} onEdit={() => setEditing({ dependent })} onRemove={() => setRemoving(dependent)} />
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {editing ? <DependentFormDialog dependent={editing.dependent} open overview={overview} onClose={() => setEditing(null)} /> : null}
        {removing ? <RemoveDependentDialog dependent={removing} overview={overview} onClose={() => setRemoving(null)} /> : null}
      </Suspense>
    </>
  );
}

/** Meu Perfil's 'Dependentes': who the plan covers besides the holder, each with their own card. */
export function DependentsSection() {
  const overview = useMyDependents();
  return (
    <section id="dependentes" className="scroll-mt-20">
      <SectionCard id="profile-dependents-title" title={m.title} description={m.description}>
        {overview.error ? <ErrorState {...retryPropsOf(overview)} /> : null}
        {overview.isPending ? <Spinner /> : null}
        {overview.data ? <DependentsBody overview={overview.data} /> : null}
      </SectionCard>
    </section>
  );
}
