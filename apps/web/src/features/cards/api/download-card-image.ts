import { useMutation } from '@tanstack/react-query';
import { apiDownload, type DownloadedFile } from '@/lib/api';

/** GET /api/patient/cards/:id/image: the card as a PNG (Baixar Cartão). */
export function downloadCardImage(cardId: string): Promise<DownloadedFile> {
  return apiDownload(`/api/patient/cards/${encodeURIComponent(cardId)}/image`);
}

/** Hands a downloaded file to the browser as a saved file with its name. */
export function saveFile({ file, fileName }: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL can go once this task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function useDownloadCardImage() {
  return useMutation({ mutationFn: (cardId: string) => downloadCardImage(cardId) });
}
