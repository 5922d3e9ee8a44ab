/** A multipart/form-data body with one file in the field "file", as a browser's FormData sends it. */
export function multipartFile(filename: string, contentType: string, bytes: Buffer): { payload: Buffer; contentType: string } {
  const boundary = '----carteirinha-test';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
