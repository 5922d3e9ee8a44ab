import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, DownloadIcon, MonitorIcon, SmartphoneIcon, TabletSmartphoneIcon, WifiOffIcon, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useMe } from '@/app/session';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { SectionCard } from '@/components/ui/section-card';
import { CardDevicesSection } from '@/features/cards/components/card-devices-section';
import { useInstallPrompt } from '../lib/use-install-prompt';

const m = messages.pwa;

function Steps({ id, title, icon: Icon, steps }: { id: string; title: string; icon: LucideIcon; steps: readonly string[] }) {
  return (
    <section aria-labelledby={id} className="grid gap-2 rounded-lg border p-4">
      <h3 id={id} className="flex items-center gap-2 font-medium">
        <Icon aria-hidden="true" className="size-5" />
        {title}
      </h3>
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}

/** The browser's install button where it has one; otherwise why the steps below are the way. */
function InstallAction() {
  const { data: me } = useMe();
  const { canPrompt, installed, install } = useInstallPrompt();
  const [answer, setAnswer] = useState<string | null>(null);
  if (installed) {
    return (
      <p role="status" className="flex items-center gap-2 font-medium" data-testid="app-installed">
        <CheckCircle2Icon aria-hidden="true" className="size-5 text-primary" />
        {m.installed}
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      {canPrompt ? (
        <Button
          type="button"
          className="w-full sm:w-fit"
          onClick={() => {
            void install().then((outcome) => setAnswer(outcome === 'accepted' ? formatMessage(m.installAccepted, { clinic: me?.clinic?.name ?? '' }) : m.installDismissed));
          }}
        >
          <DownloadIcon aria-hidden="true" />
          {m.installAction}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{m.promptUnavailable}</p>
      )}
      <p role="status" className="text-sm">
        {answer}
      </p>
    </div>
  );
}

/** /paciente/app: installing the clinic's app on each platform, and the devices that show the card offline (issue 29). */
export function PatientInstallAppPage() {
  return (
    <div className="grid gap-6">
      <PageHeader title={m.title} description={m.description} />
      <SectionCard id="install-app" title={m.installAction}>
        <InstallAction />
        <div className="grid gap-3 lg:grid-cols-3">
          <Steps id="install-android" title={m.androidTitle} icon={SmartphoneIcon} steps={m.androidSteps} />
          <Steps id="install-ios" title={m.iosTitle} icon={TabletSmartphoneIcon} steps={m.iosSteps} />
          <Steps id="install-desktop" title={m.desktopTitle} icon={MonitorIcon} steps={m.desktopSteps} />
        </div>
      </SectionCard>
      <SectionCard id="offline-card" title={m.offlineTitle}>
        <p className="flex items-start gap-2 text-sm">
          <WifiOffIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {m.offlineText}
        </p>
      </SectionCard>
      <CardDevicesSection />
    </div>
  );
}
