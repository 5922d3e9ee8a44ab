import { formatMessage, messages } from '@carteirinha/shared/messages';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { useCardToken } from '../api/get-card-token';
import { secondsLeft } from '../lib/card-format';
import type { OfflineCardRecord } from '../lib/offline-card-store';
import { useDeviceToken } from '../lib/use-device-token';
import { useNow } from '../lib/use-now';

const s = messages.cardScreens;

/** Counts how often the token changed, so that the live region speaks once per new QR and never per second. */
function useTokenChanges(token: string | undefined): number {
  const [seen, setSeen] = useState(token);
  const [changes, setChanges] = useState(0);
  // React's "storing information from previous renders": adjusted while rendering, not in an effect.
  if (token !== seen) {
    setSeen(token);
    if (seen !== undefined && token !== undefined) setChanges(changes + 1);
  }
  return changes;
}

function Countdown({ deadlineMs }: { deadlineMs: number }) {
  const now = useNow();
  const seconds = secondsLeft(deadlineMs, now);
  return (
    <p className="text-sm text-muted-foreground tabular-nums" data-testid="qr-countdown">
      {seconds > 0 ? formatMessage(s.qrRefreshIn, { seconds }) : s.qrRefreshing}
    </p>
  );
}

/** The QR as drawn: the code, the seconds left, the token as text, and one spoken line per new code. */
function QrView({ token, nextRefreshAtMs, personName }: { token: string; nextRefreshAtMs: number; personName: string }) {
  const changes = useTokenChanges(token);
  return (
    <div className="flex flex-col items-center gap-2">
      <div className="rounded-lg bg-white p-3" data-testid="card-qr" data-token={token}>
        <QRCodeSVG value={token} size={208} level="M" role="img" aria-label={formatMessage(s.qrLabel, { name: personName })} />
      </div>
      <Countdown deadlineMs={nextRefreshAtMs} />
      <p className="grid justify-items-center text-xs text-muted-foreground">
        {s.qrTokenLabel}
        <span className="font-mono text-sm break-all text-foreground" data-testid="card-token-text">
          {token}
        </span>
      </p>
      {/* Spoken when a new QR replaces the old one; the countdown itself is not announced every second. */}
      <p className="sr-only" aria-live="polite">
        {changes > 0 ? <span key={changes}>{s.qrUpdated}</span> : null}
      </p>
    </div>
  );
}

function QrPlaceholder() {
  return (
    <div className="flex size-56 items-center justify-center">
      <Spinner />
    </div>
  );
}

/**
 * The card's QR: a short-lived signed token (ADR 014) drawn as a real QR code, asked again by itself when its window
 * ends, with the seconds left under it and the token as text for a receptionist who has to type it.
 */
export function CardQrCode({ cardId, personName }: { cardId: string; personName: string }) {
  const query = useCardToken(cardId, true);
  const token = query.data;
  if (query.error && !token) return <ErrorState {...retryPropsOf(query)} />;
  if (!token) return <QrPlaceholder />;
  return <QrView token={token.token} nextRefreshAtMs={token.nextRefreshAtMs} personName={personName} />;
}

/** The QR an enrolled device computes itself (ADR 014 amendment, issue 29): it works with no network at all. */
export function DeviceCardQrCode({ record, cardNumber, personName }: { record: OfflineCardRecord; cardNumber: string; personName: string }) {
  const query = useDeviceToken(record, cardNumber);
  const token = query.data;
  if (query.error && !token) return <ErrorState {...retryPropsOf(query)} />;
  if (!token) return <QrPlaceholder />;
  return <QrView token={token.token} nextRefreshAtMs={token.nextRefreshAtMs} personName={personName} />;
}
