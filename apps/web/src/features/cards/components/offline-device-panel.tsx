import type { MeResponse } from '@carteirinha/shared/contracts/me';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SmartphoneIcon, WifiOffIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorText } from '@/components/ui/error-text';
import { TextField } from '@/components/ui/text-field';
import { errorMessage } from '@/lib/error-message';
import { enrolCardDevice } from '../api/card-devices';
import { canKeepDeviceKey, importDeviceKey } from '../lib/device-code';
import { defaultDeviceName } from '../lib/device-name';
import { writeOfflineCard, type OfflineCardRecord } from '../lib/offline-card-store';
import { OFFLINE_CARD_KEY } from '../lib/use-offline-card';

const m = messages.cardDevices;

/** Enrols this device: the one-time secret becomes a non-extractable key in IndexedDB, with the cards it shows. */
function useEnrolDevice(me: MeResponse) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<OfflineCardRecord> => {
      const enrolled = await enrolCardDevice({ name });
      const record: OfflineCardRecord = {
        userId: me.user.id,
        me,
        deviceId: enrolled.device.id,
        slot: enrolled.slot,
        key: await importDeviceKey(enrolled.secret),
        confirmedAt: enrolled.confirmedAt,
        offlineCodesUntil: enrolled.offlineCodesUntil,
        cards: enrolled.cards,
      };
      await writeOfflineCard(record);
      return record;
    },
    onSuccess: (record) => {
      queryClient.setQueryData(OFFLINE_CARD_KEY, record);
      void queryClient.invalidateQueries({ queryKey: ['card-devices'] });
    },
  });
}

function EnrolForm({ me }: { me: MeResponse }) {
  const [name, setName] = useState(() => defaultDeviceName(navigator.userAgent));
  const enrol = useEnrolDevice(me);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enrol.mutate(name.trim());
  };
  if (!canKeepDeviceKey()) return <p className="text-sm text-muted-foreground">{m.unsupported}</p>;
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
      <TextField label={m.enrolNameLabel} value={name} onChange={(event) => setName(event.target.value)} maxLength={60} required />
      <Button type="submit" disabled={enrol.isPending || name.trim() === ''}>
        <SmartphoneIcon aria-hidden="true" />
        {enrol.isPending ? m.enrolling : m.enrolAction}
      </Button>
      {enrol.error ? (
        <div className="sm:col-span-2">
          <ErrorText>
            {m.enrolFailedTitle}: {errorMessage(enrol.error)}
          </ErrorText>
        </div>
      ) : null}
    </form>
  );
}

/**
 * Under the card: enrol this device for the offline card, or — once enrolled — when the card was last confirmed and
 * until when the QR shows without a network, with the way to the device list.
 */
export function OfflineDevicePanel({ me, record, revoked }: { me: MeResponse; record: OfflineCardRecord | null; revoked: boolean }) {
  return (
    <Card data-testid="offline-device-panel">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2">
            <WifiOffIcon aria-hidden="true" className="size-5" />
            {m.enrolTitle}
          </h2>
        </CardTitle>
        {record ? null : <CardDescription>{m.enrolText}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {revoked ? (
          <p role="status" className="font-medium">
            {m.revokedHere}
          </p>
        ) : null}
        {record ? (
          <>
            <p role="status">{m.enrolled}</p>
            <p className="text-muted-foreground">{formatMessage(m.lastConfirmed, { date: formatDateTime(record.confirmedAt) })}</p>
            <p className="text-muted-foreground">{formatMessage(m.offlineUntil, { date: formatDateTime(record.offlineCodesUntil) })}</p>
            <Button asChild variant="outline" size="sm" className="w-full sm:w-fit">
              <Link to="/paciente/app">{m.listTitle}</Link>
            </Button>
          </>
        ) : (
          <EnrolForm me={me} />
        )}
      </CardContent>
    </Card>
  );
}
