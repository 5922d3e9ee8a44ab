import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type SecretBox = {
  seal: (plain: string) => string;
  open: (sealed: string) => string;
};

/**
 * Encrypts small secrets kept in the database (the SMTP password) with AES-256-GCM under a key derived from the
 * auth secret, so a copy of the database alone does not reveal them. Sealed form: `v1.<iv>.<tag>.<data>` base64url.
 */
export function createSecretBox(authSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', authSecret, 'carteirinha', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
