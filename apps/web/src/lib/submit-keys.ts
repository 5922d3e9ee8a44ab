/**
 * Idempotency keys for one form's saves: one UUID per logical submit. Sending the same values again (the user's retry
 * after "Sem conexão. Nada foi salvo." or a timeout) reuses the key of the attempt whose answer was lost, so the server
 * can tell a retry from a second save; other values are another submit, with a new key. After a success the next save
 * starts afresh.
 */
/** A random UUID (v4); `crypto.randomUUID` exists only on HTTPS pages, `getRandomValues` everywhere. */
export function newUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class SubmitKeys {
  private last: { payload: string; key: string } | null = null;

  constructor(private readonly newKey: () => string = newUuid) {}

  /** The key to send with these values. */
  keyFor(values: unknown): string {
    const payload = JSON.stringify(values);
    if (this.last?.payload === payload) return this.last.key;
    this.last = { payload, key: this.newKey() };
    return this.last.key;
  }

  /** The save went through: the same values sent later are a new submit. */
  settle(): void {
    this.last = null;
  }
}
