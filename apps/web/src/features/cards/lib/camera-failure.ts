/** Why the camera could not be used, as the screen explains it. */
export type CameraFailure = 'denied' | 'missing' | 'failed';

/** Maps what getUserMedia rejects with to what the receptionist needs to know. */
export function cameraFailureOf(error: unknown): CameraFailure {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'missing';
  return 'failed';
}
