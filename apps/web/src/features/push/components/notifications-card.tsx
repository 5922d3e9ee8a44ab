import { formatCount, messages } from '@carteirinha/shared/messages';
import { useId, useState } from 'react';
import { ErrorState } from '@/components/ui/error-state';
import { ErrorText } from '@/components/ui/error-text';
import { Label } from '@/components/ui/label';
import { SectionCard } from '@/components/ui/section-card';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useBrowserEndpoint } from '../api/browser-subscription';
import { usePushState } from '../api/push-state';
import { useTurnPushOff, useTurnPushOn } from '../api/toggle-push';
import { notificationPermission, PushSetupError, pushSupport, type PushSupport } from '../lib/browser-push';

const m = messages.push;

function failureText(error: unknown): string {
  return error instanceof PushSetupError ? error.message : errorMessage(error);
}

/** Why the switch cannot be used here, in pt-BR; null when it can. */
function unavailableText(support: PushSupport, permission: NotificationPermission): string | null {
  switch (support) {
    case 'unsupported':
      return m.unsupported;
    case 'install-first':
      return m.unsupportedIos;
    case 'supported':
      return permission === 'denied' ? m.denied : null;
  }
}

/**
 * Meu Perfil › 'Notificações' (issue 29): a switch for this browser. On asks the browser's permission, subscribes it
 * and tells the server; off removes it on both sides. It says plainly when this browser cannot receive notifications
 * or they were blocked — the notices then keep coming by e-mail.
 */
export function NotificationsCard() {
  const id = useId();
  const support = pushSupport();
  const state = usePushState();
  const browser = useBrowserEndpoint(support === 'supported');
  const turnOn = useTurnPushOn();
  const turnOff = useTurnPushOff();
  const [failure, setFailure] = useState<string | null>(null);
  const [permission, setPermission] = useState(notificationPermission);

  const devices = state.data?.devices ?? [];
  const endpoint = browser.data ?? null;
  const thisDevice = endpoint ? (devices.find((device) => device.endpoint === endpoint) ?? null) : null;
  const others = devices.filter((device) => device !== thisDevice).length;
  const busy = turnOn.isPending || turnOff.isPending;

  const switchTo = async (on: boolean) => {
    setFailure(null);
    try {
      if (on) {
        if (!state.data) return;
        await turnOn.mutateAsync(state.data.publicKey);
        toast.success(m.turnedOn);
      } else {
        await turnOff.mutateAsync(thisDevice?.id ?? null);
        toast.success(m.turnedOff);
      }
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setPermission(notificationPermission());
    }
  };

  const unavailable = unavailableText(support, permission);

  return (
    <SectionCard id="profile-notifications-title" title={m.title} description={m.description}>
      {state.error ? <ErrorState error={state.error} onRetry={() => void state.refetch()} /> : null}
      {state.isPending || (support === 'supported' && browser.isPending) ? <Spinner /> : null}
      {state.data ? (
        <>
          <div className="flex items-center justify-between gap-3">
            <Label htmlFor={id}>{m.switchLabel}</Label>
            <Switch id={id} checked={thisDevice !== null} disabled={unavailable !== null || busy} onCheckedChange={(checked) => void switchTo(checked)} data-testid="push-switch" />
          </div>
          {busy ? <p className="text-sm text-muted-foreground">{messages.common.saving}</p> : null}
          {unavailable ? (
            <p className="text-sm text-muted-foreground" data-testid="push-unavailable">
              {unavailable}
            </p>
          ) : null}
          {failure ? <ErrorText>{failure}</ErrorText> : null}
          {others > 0 ? <p className="text-sm text-muted-foreground">{formatCount(m.otherDevices, others)}</p> : null}
        </>
      ) : null}
    </SectionCard>
  );
}
