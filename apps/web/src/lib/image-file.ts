import { AVATAR_MAX_BYTES } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';

/**
 * Specification §5 upload rules for any image (a clinic's logo, a patient's photo), checked before sending (the server checks again, sniffing the bytes): an image, at
 * most 2 MB — the same limit and messages as the server's. Returns the message to show, or null when the file is fine.
 */
export function imageFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return messages.tenancy.invalidImage;
  if (file.size > AVATAR_MAX_BYTES) return messages.tenancy.imageTooLarge;
  return null;
}
