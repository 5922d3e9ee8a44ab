/** The Base32 key inside an otpauth:// URI, in groups of four, for people who type it instead of scanning. */
export function totpSecretOf(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get('secret') ?? '';
  return secret.match(/.{1,4}/g)?.join(' ') ?? '';
}
