import { messages } from '@carteirinha/shared/messages';
import { CopyIcon, PrinterIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { lazyComponent } from '@/lib/lazy-component';

const f = messages.firstSteps;

// The poster's QR code is drawn only when the poster is opened.
const SitePosterDialog = lazyComponent(() => import('./site-poster-dialog'), (m) => m.SitePosterDialog);

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The clinic's site address as a link, with 'Copiar' and the printable poster for the reception desk. The answer to
 * 'Copiar' is said beside the button (and read out), where the owner is looking.
 */
export function SiteAddress({ siteUrl, clinicName }: { siteUrl: string; clinicName: string }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const [posterOpen, setPosterOpen] = useState(false);

  async function copyAddress() {
    try {
      await navigator.clipboard.writeText(siteUrl);
      setCopy('copied');
    } catch (error) {
      // Refused by the browser (no permission, an insecure page): the address stays on screen to be copied by hand.
      console.warn('Falha ao copiar o endereço do site', error);
      setCopy('failed');
    }
  }

  return (
    <div className="grid gap-3" data-testid="site-address">
      <a href={siteUrl} target="_blank" rel="noreferrer" className="font-mono text-sm font-medium break-all text-primary-text underline-offset-4 hover:underline">
        {siteUrl}
      </a>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => void copyAddress()}>
          <CopyIcon aria-hidden="true" />
          {f.copy}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => setPosterOpen(true)}>
          <PrinterIcon aria-hidden="true" />
          {f.poster}
        </Button>
        <p role="status" className={copy === 'failed' ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}>
          {copy === 'copied' ? f.copied : copy === 'failed' ? f.copyFailed : null}
        </p>
      </div>
      <LoadWhenOpen open={posterOpen}>
        <SitePosterDialog open={posterOpen} onOpenChange={setPosterOpen} siteUrl={siteUrl} clinicName={clinicName} />
      </LoadWhenOpen>
    </div>
  );
}
