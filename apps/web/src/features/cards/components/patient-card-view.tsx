import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { BanIcon, CheckCircle2Icon, IdCardIcon, UsersIcon, WifiOffIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { CenteredSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useMe } from '@/app/session';
import { useMyCards } from '../api/list-my-cards';
import type { OfflineCardRecord } from '../lib/offline-card-store';
import { useDeviceCheckIn, useOfflineCardRecord } from '../lib/use-offline-card';
import { useNow } from '../lib/use-now';
import { discountLines } from '../lib/discount-lines';
import { CardActions } from './card-actions';
import { CardQrCode, DeviceCardQrCode } from './card-qr-code';
import { DigitalCardFace } from './digital-card-face';
import { OfflineDevicePanel } from './offline-device-panel';

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

/**
 * The QR of an active card: the one this device computes when it is enrolled — until 72 h after the server last
 * confirmed the card, then none (issue 29) — or else the server's token.
 */
function CardCode({ card, device }: { card: PatientCard; device: OfflineCardRecord | null }) {
  const now = useNow(30_000);
  if (!device) return <CardQrCode cardId={card.id} personName={card.personName} />;
  if (now > Date.parse(device.offlineCodesUntil)) {
    return (
      <div role="status" className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-4 text-center">
        <WifiOffIcon aria-hidden="true" className="size-6 text-muted-foreground" />
        <p className="text-sm">{messages.cardDevices.offlineExpired}</p>
      </div>
    );
  }
  return <DeviceCardQrCode record={device} cardNumber={card.number} personName={card.personName} />;
}

/** One person's card: the face, the QR (or why there is none), the buttons, how to use it and its discounts. */
function OneCard({ card, device, offline }: { card: PatientCard; device: OfflineCardRecord | null; offline: boolean }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2 lg:items-start" data-testid="patient-card" data-active={card.active}>
      <div className="grid gap-4">
        <DigitalCardFace card={card} />
        <Card className="py-4">
          <CardContent className="flex flex-col items-center gap-4 px-4">
            {card.active ? <CardCode card={card} device={device} /> : <InactiveNotice reason={card.inactiveReason} />}
            <div className="w-full max-w-md" hidden={offline}>
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

/** Offline, the page says so, and when the server last confirmed the cards shown (issue 29). */
function OfflineBanner({ confirmedAt }: { confirmedAt: string }) {
  return (
    <div role="status" data-testid="offline-banner" className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <WifiOffIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <p>{formatMessage(messages.cardDevices.offlineBanner, { date: formatDateTime(confirmedAt) })}</p>
    </div>
  );
}

function CardsOf({ cards, device, offline }: { cards: PatientCard[]; device: OfflineCardRecord | null; offline: boolean }) {
  const [search] = useSearchParams();
  const [first] = cards;
  if (!first) return <NoCard />;
  if (cards.length === 1) {
    return (
      <div className="grid gap-4">
        {offline ? null : <ManageDependents card={first} />}
        <OneCard card={first} device={device} offline={offline} />
      </div>
    );
  }
  const person = search.get('pessoa');
  const chosen = cards.find((card) => card.dependentId !== null && card.dependentId === person) ?? first;
  return (
    <Tabs defaultValue={chosen.id} className="gap-4">
      {offline ? null : <ManageDependents card={first} />}
      <TabsList aria-label={s.whoseCard} className="h-auto flex-wrap">
        {cards.map((card) => (
          <TabsTrigger key={card.id} value={card.id}>
            {card.personName}
          </TabsTrigger>
        ))}
      </TabsList>
      {cards.map((card) => (
        <TabsContent key={card.id} value={card.id}>
          <OneCard card={card} device={device} offline={offline} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

/**
 * /paciente/cartao: the patient's digital card, and each dependent's, chosen by tabs. The holder's comes first and is
 * shown unless the link names a dependent (`?pessoa=<id>`, from Meu Perfil's 'Ver carteirinha'). On an enrolled device
 * the QR is computed here, and with no network the cards come from the device as the server last confirmed them.
 */
export function PatientCardView() {
  const { data: me } = useMe();
  const cards = useMyCards();
  const stored = useOfflineCardRecord(me);
  const device = stored.data ?? null;
  const checkIn = useDeviceCheckIn(device);
  // The first failed try is enough to show the device's card: a retry on a dead network only makes the desk wait.
  const unreachable = Boolean(cards.error) || cards.failureCount > 0 || cards.fetchStatus === 'paused';
  if (cards.data) {
    return (
      <div className="grid gap-6">
        <CardsOf cards={cards.data} device={device} offline={false} />
        {/* Nothing to carry offline without a card: a device already enrolled is still listed, to be removed. */}
        {me && (cards.data.length > 0 || device) ? <OfflineDevicePanel me={me} record={device} revoked={checkIn.data === 'revoked'} /> : null}
      </div>
    );
  }
  if (unreachable && device) {
    return (
      <div className="grid gap-4">
        <OfflineBanner confirmedAt={device.confirmedAt} />
        <CardsOf cards={device.cards} device={device} offline />
      </div>
    );
  }
  if (unreachable && stored.isFetched && cards.error) return <ErrorState {...retryPropsOf(cards)} />;
  if (unreachable && stored.isFetched) return <EmptyState icon={WifiOffIcon} title={messages.pwa.offline} description={messages.cardDevices.offlineNoCards} />;
  return <CenteredSpinner />;
}
