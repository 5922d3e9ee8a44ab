import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';
import { BanIcon, CheckCircle2Icon, IdCardIcon, UsersIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { CenteredSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useMyCards } from '../api/list-my-cards';
import { discountLines } from '../lib/discount-lines';
import { CardActions } from './card-actions';
import { CardQrCode } from './card-qr-code';
import { DigitalCardFace } from './digital-card-face';

const s = messages.cardScreens;

function InactiveNotice({ reason }: { reason: string | null }) {
  return (
    <div role="status" className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-4 text-center">
      <BanIcon aria-hidden="true" className="size-6 text-muted-foreground" />
      <p className="font-medium">{s.inactiveTitle}</p>
      <p className="text-sm text-muted-foreground">{reason ?? messages.cards.noToken}</p>
    </div>
  );
}

function HowToUse() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{s.howToUseTitle}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="space-y-3">
          {s.howToUse.map((step, index) => (
            <li key={step} className="flex gap-3 text-sm">
              <span aria-hidden="true" className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">
                {index + 1}
              </span>
              {step}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function Discounts({ card }: { card: PatientCard }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{s.discountsTitle}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-2">
          {discountLines(card.discounts).map((line) => (
            <li key={line.label} className="flex items-center justify-between gap-3 text-sm">
              <span className="flex items-center gap-2">
                <CheckCircle2Icon aria-hidden="true" className="size-4 shrink-0 text-primary" />
                {line.label}
              </span>
              <span className="font-semibold tabular-nums">{line.percent}%</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** One person's card: the face, the QR (or why there is none), the buttons, how to use it and its discounts. */
function OneCard({ card }: { card: PatientCard }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start" data-testid="patient-card" data-active={card.active}>
      <div className="grid gap-4">
        <DigitalCardFace card={card} />
        <Card className="py-4">
          <CardContent className="flex flex-col items-center gap-4 px-4">
            {card.active ? <CardQrCode cardId={card.id} personName={card.personName} /> : <InactiveNotice reason={card.inactiveReason} />}
            <div className="w-full max-w-md">
              {/* A card that does not validate is not one to hand around: the way back to a valid one is. */}
              {card.active ? (
                <CardActions cardId={card.id} cardNumber={card.number} />
              ) : (
                <Button asChild className="w-full">
                  <Link to="/paciente/assinatura">{s.goToSubscription}</Link>
                </Button>
              )}
            </div>
          </CardContent>
        </Card>
      </div>
      <div className="grid gap-4">
        <HowToUse />
        <Discounts card={card} />
      </div>
    </div>
  );
}

function NoCard() {
  return (
    <EmptyState icon={IdCardIcon} title={s.noCardTitle} description={s.noCard}>
      <Button asChild>
        <Link to="/paciente/assinatura">{s.goToSubscription}</Link>
      </Button>
    </EmptyState>
  );
}

/** Where the dependents are added and removed (Meu Perfil), for a plan that covers more than the holder. */
function ManageDependents({ card }: { card: PatientCard }) {
  if (card.maxMembers <= 1) return null;
  return (
    <div className="flex justify-end">
      <Button asChild variant="outline" size="sm">
        <Link to="/paciente/perfil#dependentes">
          <UsersIcon aria-hidden="true" />
          {messages.dependents.manage}
        </Link>
      </Button>
    </div>
  );
}

/**
 * /paciente/cartao: the patient's digital card, and each dependent's, chosen by tabs. The holder's comes first and is
 * shown unless the link names a dependent (`?pessoa=<id>`, from Meu Perfil's 'Ver carteirinha').
 */
export function PatientCardView() {
  const cards = useMyCards();
  const [search] = useSearchParams();
  if (cards.error) return <ErrorState {...retryPropsOf(cards)} />;
  if (!cards.data) return <CenteredSpinner />;
  const [first] = cards.data;
  if (!first) return <NoCard />;
  if (cards.data.length === 1) {
    return (
      <div className="grid gap-4">
        <ManageDependents card={first} />
        <OneCard card={first} />
      </div>
    );
  }
  const person = search.get('pessoa');
  const chosen = cards.data.find((card) => card.dependentId !== null && card.dependentId === person) ?? first;
  return (
    <Tabs defaultValue={chosen.id} className="gap-4">
      <ManageDependents card={first} />
      <TabsList aria-label={s.whoseCard} className="h-auto flex-wrap">
        {cards.data.map((card) => (
          <TabsTrigger key={card.id} value={card.id}>
            {card.personName}
          </TabsTrigger>
        ))}
      </TabsList>
      {cards.data.map((card) => (
        <TabsContent key={card.id} value={card.id}>
          <OneCard card={card} />
        </TabsContent>
      ))}
    </Tabs>
  );
}
