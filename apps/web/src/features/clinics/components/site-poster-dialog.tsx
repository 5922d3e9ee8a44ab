import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PrinterIcon } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

const f = messages.firstSteps;

type SitePosterDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; siteUrl: string; clinicName: string };

/**
 * 'Cartaz para a recepção': the clinic's name, a line to the patient and the QR of its site, printed on a page of
 * its own (styles.css prints only the `data-print-area` when one is open).
 */
export function SitePosterDialog({ open, onOpenChange, siteUrl, clinicName }: SitePosterDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{f.posterTitle}</DialogTitle>
          <DialogDescription className="sr-only">{f.posterHeadline}</DialogDescription>
        </DialogHeader>
        <div data-print-area data-testid="site-poster" className="grid justify-items-center gap-4 rounded-xl border p-6 text-center">
          <p className="text-2xl font-bold tracking-tight">{clinicName}</p>
          <p className="text-xl font-semibold text-primary-text">{f.posterHeadline}</p>
          <div className="rounded-lg bg-white p-3">
            <QRCodeSVG value={siteUrl} size={220} level="M" role="img" aria-label={formatMessage(f.posterQrLabel, { url: siteUrl })} />
          </div>
          <p className="max-w-sm text-sm text-pretty">{formatMessage(f.posterBody, { clinic: clinicName })}</p>
          <p className="font-mono text-sm break-all">{siteUrl}</p>
        </div>
        <DialogFooter>
          <Button type="button" onClick={() => window.print()}>
            <PrinterIcon aria-hidden="true" />
            {f.print}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
