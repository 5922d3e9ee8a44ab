import type { CardDevice } from '@carteirinha/shared/contracts/card-devices';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SmartphoneIcon } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { SectionCard } from '@/components/ui/section-card';
import { CenteredSpinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toasts';
import { revokeCardDevice, useCardDevices } from '../api/card-devices';
import { readOfflineCard, wipeOfflineCardData } from '../lib/offline-card-store';
import { OFFLINE_CARD_KEY } from '../lib/use-offline-card';

const m = messages.cardDevices;

/** The device enrolled in this browser, if any (its id is in IndexedDB). */
function useThisDeviceId(): string | null {
  const query = useQuery({ queryKey: [...OFFLINE_CARD_KEY, 'device-id'], queryFn: async () => (await readOfflineCard())?.deviceId ?? null, networkMode: 'always' });
  return query.data ?? null;
}

function DeviceItem({ device, isThisDevice, onRevoke }: { device: CardDevice; isThisDevice: boolean; onRevoke: () => void }) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="card-device">
      <div className="grid gap-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <SmartphoneIcon aria-hidden="true" className="size-4" />
          {device.name}
          {isThisDevice ? <Badge variant="secondary">{m.thisDevice}</Badge> : null}
        </p>
        <p className="text-muted-foreground">{formatMessage(m.enrolledAt, { date: formatDateTime(device.createdAt) })}</p>
        <p className="text-muted-foreground">{formatMessage(m.lastSeen, { date: formatDateTime(device.confirmedAt) })}</p>
        <p className="text-muted-foreground">{device.lastUsedAt ? formatMessage(m.lastUsed, { date: formatDateTime(device.lastUsedAt) }) : m.neverUsed}</p>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={onRevoke} aria-label={formatMessage(m.revokeLabel, { name: device.name })}>
        {m.revoke}
      </Button>
    </li>
  );
}

/**
 * The patient's devices with the offline card (issue 29): name, enrolment, last connection and last use at a desk,
 * each removable. Removing this browser's own device also wipes its key and cached card here.
 */
export function CardDevicesSection() {
  const devices = useCardDevices();
  const thisDeviceId = useThisDeviceId();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<CardDevice | null>(null);

  const revoke = async (device: CardDevice) => {
    await revokeCardDevice(device.id);
    if (device.id === thisDeviceId) {
      await wipeOfflineCardData();
      queryClient.setQueryData(OFFLINE_CARD_KEY, null);
    }
    await queryClient.invalidateQueries({ queryKey: OFFLINE_CARD_KEY });
    await queryClient.invalidateQueries({ queryKey: ['card-devices'] });
    toast.success(m.revoked);
  };

  return (
    <SectionCard id="card-devices" title={m.listTitle} description={m.listDescription}>
      {devices.error ? <ErrorState {...retryPropsOf(devices)} /> : null}
      {!devices.data && !devices.error ? <CenteredSpinner /> : null}
      {devices.data ? (
        <>
          <p className="text-sm text-muted-foreground">{formatMessage(m.listCount, { count: devices.data.items.length, max: devices.data.max })}</p>
          {devices.data.items.length === 0 ? (
            <p className="text-sm">{m.listEmpty}</p>
          ) : (
            <ul className="grid gap-3">
              {devices.data.items.map((device) => (
                <DeviceItem key={device.id} device={device} isThisDevice={device.id === thisDeviceId} onRevoke={() => setRevoking(device)} />
              ))}
            </ul>
          )}
        </>
      ) : null}
      <ConfirmActionDialog
        open={revoking !== null}
        title={m.revokeConfirmTitle}
        description={formatMessage(m.revokeConfirmText, { name: revoking?.name ?? '' })}
        cancelLabel={messages.common.cancel}
        confirmLabel={m.revoke}
        onConfirm={async () => {
          if (revoking) await revoke(revoking);
        }}
        onClose={() => setRevoking(null)}
      />
    </SectionCard>
  );
}
