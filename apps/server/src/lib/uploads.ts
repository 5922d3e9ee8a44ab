import type { FastifyRequest } from 'fastify';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from './app-error.ts';

/**
 * A multipart body the parser cannot read (cut short, no boundary, broken part headers) is the client's doing: 400
 * with the image message, not a 500. @fastify/multipart's own errors (limits) already carry their 4xx status.
 */
function refuseUnreadableUpload(error: unknown): never {
  if (error instanceof AppError) throw error;
  if (error instanceof Error && 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500) throw error;
  throw new AppError('VALIDATION', messages.tenancy.invalidImage);
}

/**
 * The bytes of the one image of a multipart upload (field "file"), with the upload messages of the specification §5:
 * nothing sent is "not an image", past the multipart limit is "too large". The bytes are still unchecked: the caller
 * hands them to `reencodeImage`, which reads the type from them.
 */
export async function uploadedImageBytes(request: FastifyRequest): Promise<Buffer> {
  const file = await request.file().catch(refuseUnreadableUpload);
  if (!file) throw new AppError('VALIDATION', messages.tenancy.invalidImage);
  return file.toBuffer().catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', messages.tenancy.imageTooLarge);
    }
    return refuseUnreadableUpload(error);
  });
}
