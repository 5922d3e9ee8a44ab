import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DownloadIcon, Share2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { saveFile, useDownloadCardImage } from '../api/download-card-image';

const s = messages.cardScreens;

/** The card page's own address: what 'Compartilhar' sends (the holder opens it signed in). */
function cardPageUrl(): string {
  return new URL('/paciente/cartao', window.location.origin).toString();
}

/** Web Share API where the device has it, else the link copied to the clipboard; false when the user cancelled. */
async function shareLink(url: string): Promise<boolean> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: s.shareTitle, url });
      return true;
    } catch (error) {
      // The user closed the share sheet: nothing was shared, and nothing went wrong.
      if (error instanceof DOMException && error.name === 'AbortError') return false;
      throw error;
    }
  }
  await navigator.clipboard.writeText(url);
  return true;
}

/** 'Baixar Cartão' (the server's PNG of the card) and 'Compartilhar'. */
export function CardActions({ cardId, cardNumber }: { cardId: string; cardNumber: string }) {
  const download = useDownloadCardImage();

  async function onDownload() {
    try {
      const file = await download.mutateAsync(cardId);
      saveFile(file, `cartao-${cardNumber.slice(-4)}.png`);
      toast.success(messages.cards.downloaded);
    } catch (error) {
      toast.error(formatMessage(s.downloadError, { message: errorMessage(error) }));
    }
  }

  async function onShare() {
    try {
      if (await shareLink(cardPageUrl())) toast.success(messages.cards.shared);
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
      <Button type="button" variant="outline" onClick={() => void onShare()}>
        <Share2Icon aria-hidden="true" />
        {messages.cards.share}
      </Button>
    </div>
  );
}
