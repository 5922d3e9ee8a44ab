/**
 * The camera QR scanner, loaded only when 'Ativar Câmera' is pressed: ZXing's browser layer (pure JavaScript, no
 * WebAssembly fetched from elsewhere, so it fits the site's Content-Security-Policy and works offline) is a chunk of
 * its own, never part of the clinic portal's first load.
 */
import { BrowserQRCodeReader, type IScannerControls } from '@zxing/browser';

export type QrScan = { stop: () => void };

/** Starts the back camera into `video` and calls `onText` once per QR read; `stop()` releases the camera. */
export async function startQrScan(video: HTMLVideoElement, onText: (text: string) => void): Promise<QrScan> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('camera unavailable', 'NotSupportedError');
  const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 200 });
  const controls: IScannerControls = await reader.decodeFromConstraints({ video: { facingMode: 'environment' } }, video, (result) => {
    if (result) onText(result.getText());
  });
  return { stop: () => controls.stop() };
}
