import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AVATAR_MAX_BYTES } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from './app-error.ts';

const ACCEPTED = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** Refuse "pixel bombs" before decoding them whole (security checklist §7 item 26). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Turns an uploaded image into a safe one: the type is read from the bytes (not the name or the declared type),
 * the size is capped at 2 MB, and the picture is re-encoded to WebP, which drops EXIF/GPS data and any payload
 * hidden in the original file.
 */
export async function reencodeImage(bytes: Buffer, options: { maxSide: number }): Promise<Buffer> {
  if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', messages.tenancy.imageTooLarge);
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw new AppError('VALIDATION', messages.tenancy.invalidImage);
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError('VALIDATION', messages.tenancy.invalidImage);
  }
}
