/**
 * The file's bytes as base64, as the import's contract carries them: the server decides the encoding (UTF-8 or
 * Windows-1252), so the browser sends the bytes untouched. In chunks, so a 1 MB file does not overflow the call stack.
 */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const CHUNK = 0x8000;
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += CHUNK) binary += String.fromCharCode(...bytes.subarray(offset, offset + CHUNK));
  return btoa(binary);
}
