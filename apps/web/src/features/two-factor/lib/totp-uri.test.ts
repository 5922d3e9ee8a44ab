import { describe, expect, it } from 'vitest';
import { totpSecretOf } from './totp-uri';

describe('totpSecretOf', () => {
  it('reads the Base32 secret of an otpauth URI in groups of four', () => {
    expect(totpSecretOf('otpauth://totp/Carteirinha:ana%40x.dev?secret=JBSWY3DPEHPK3PXP&issuer=Carteirinha&digits=6&period=30')).toBe(
      'JBSW Y3DP EHPK 3PXP',
    );
  });

  it('answers empty for a URI without a secret', () => {
    expect(totpSecretOf('otpauth://totp/Carteirinha:ana')).toBe('');
  });
});
