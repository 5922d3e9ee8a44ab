import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DownloadIcon, Share2Icon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/error-message';
import type { DownloadedFile } from '@/lib/api';
import { saveFile, useDownloadCardImage } from '../api/download-card-image';

const s = messages.cardScreens;

/** What happened to the card when 'Compartilhar' was pressed. */
type ShareOutcome = 'shared' | 'downloaded' | 'cancelled';

/**
 * Shares the card's image, which whoever receives it can open (the card page's address opens only for its holder,
 * signed in): through the device's share sheet where it takes files, else as a downloaded file the patient sends.
 */
async function shareCardImage(image: DownloadedFile, fileName: string): Promise<ShareOutcome> {
  const file = new File([image.file], image.fileName ?? fileName, { type: 'image/png' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ title: s.shareTitle, files: [file] });
      return 'shared';
    } catch (error) {
      // The patient closed the share sheet: nothing was shared, and nothing went wrong.
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      throw error;
    }
  }
  saveFile(image, fileName);
  return 'downloaded';
}

/** 'Baixar Cartão' and 'Compartilhar': the server's PNG of the card (number, name, plan, validity, the clinic's site). */
export function CardActions({ cardId, cardNumber }: { cardId: string; cardNumber: string }) {
  const download = useDownloadCardImage();
  const fileName = `cartao-${cardNumber.slice(-4)}.png`;

  async function onDownload() {
    try {
      saveFile(await download.mutateAsync(cardId), fileName);
      toast.success(messages.cards.downloaded);
    } catch (error) {
      toast.error(formatMessage(s.downloadError, { message: errorMessage(error) }));
    }
  }

  async function onShare() {
    try {
      const outcome = await shareCardImage(await download.mutateAsync(cardId), fileName);
      if (outcome === 'shared') toast.success(messages.cards.sharedImage);
      if (outcome === 'downloaded') toast.success(messages.cards.sharedAsDownload);
    } catch (error) {
      console.warn('Falha ao compartilhar o cartão', error);
      toast.error(s.shareError);
    }
  }

  return (
    <div className="grid grid-cols-2 gap-2">
      <Button type="button" onClick={() => void onDownload()} disabled={download.isPending}>
        <DownloadIcon aria-hidden="true" />
        {messages.cards.download}
      </Button>
      <Button type="button" variant="outline" onClick={() => void onShare()} disabled={download.isPending}>
        <Share2Icon aria-hidden="true" />
        {messages.cards.share}
      </Button>
    </div>
  );
}
