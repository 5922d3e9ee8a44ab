import { describe, expect, it } from 'vitest';
import { defaultDeviceName } from './device-name';

describe('defaultDeviceName', () => {
  it('names the browser and the platform in pt-BR', () => {
    expect(defaultDeviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome em Android');
    expect(defaultDeviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1')).toBe('Safari em iPhone');
    expect(defaultDeviceName('curl/8')).toBe('Navegador em aparelho');
  });
});
