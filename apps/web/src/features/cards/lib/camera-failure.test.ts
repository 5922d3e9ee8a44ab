import { describe, expect, it } from 'vitest';
import { cameraFailureOf } from './camera-failure';

describe('cameraFailureOf', () => {
  it('reads a refused permission as denied', () => {
    expect(cameraFailureOf(new DOMException('Permission denied', 'NotAllowedError'))).toBe('denied');
  });

  it('reads a device without a camera as missing', () => {
    expect(cameraFailureOf(new DOMException('Requested device not found', 'NotFoundError'))).toBe('missing');
  });

  it('reads anything else as a failure', () => {
    expect(cameraFailureOf(new DOMException('Could not start video source', 'NotReadableError'))).toBe('failed');
    expect(cameraFailureOf('unexpected')).toBe('failed');
  });
});
