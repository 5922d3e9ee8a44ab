import { describe, expect, it } from 'vitest';
import { isAcceptedEndpoint } from './endpoint-policy.ts';

const production = { loopback: false };
const withDouble = { loopback: true };

describe('isAcceptedEndpoint', () => {
  it("accepts the browsers' push services over https", () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ]) {
      expect(isAcceptedEndpoint(endpoint, production), endpoint).toBe(true);
    }
  });

  it('refuses anything else: other hosts, look-alikes, addresses, ports, credentials, plain http', () => {
    for (const endpoint of [
      'https://evil.example/fcm.googleapis.com',
      'https://fcm.googleapis.com.evil.example/x',
      'https://notify.windows.com.evil.example/x',
      'https://10.0.0.5/push',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:pass@fcm.googleapis.com/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'http://127.0.0.1:4000/push/x',
      'file:///etc/passwd',
      'não é um endereço',
    ]) {
      expect(isAcceptedEndpoint(endpoint, production), endpoint).toBe(false);
    }
  });

  it('takes plain http on a loopback address only when the push service double is allowed', () => {
    expect(isAcceptedEndpoint('http://127.0.0.1:4000/push/x', withDouble)).toBe(true);
    expect(isAcceptedEndpoint('http://[::1]:4000/push/x', withDouble)).toBe(true);
    expect(isAcceptedEndpoint('http://192.168.0.10:4000/push/x', withDouble)).toBe(false);
  });
});
