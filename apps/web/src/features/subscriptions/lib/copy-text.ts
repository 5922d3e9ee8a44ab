import { messages } from '@carteirinha/shared/messages';
import { toast } from '@/lib/toasts';

/**
 * Copies the Pix code or the boleto's line to the clipboard and says so; where the browser refuses (no permission, an
 * insecure page), it says how to copy by hand — the text is on screen and selectable.
 */
export async function copyText(text: string, copiedMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copiedMessage);
  } catch {
    toast.error(messages.subscriptionPage.copyFailed);
  }
}
