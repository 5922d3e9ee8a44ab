/**
 * The address a deleted account keeps (ADR 027): unique per account, as `users.email` must be, and under `.invalid`
 * (RFC 2606), so it can never receive mail nor be signed up or signed in with. The person's real address is free
 * again for a new account.
 */
const TOMBSTONE_DOMAIN = 'conta-excluida.invalid';

export function tombstoneAddressOf(userId: string): string {
  return `excluida-${userId}@${TOMBSTONE_DOMAIN}`;
}

export function isTombstoneAddress(email: string): boolean {
  return email.endsWith(`@${TOMBSTONE_DOMAIN}`);
}
