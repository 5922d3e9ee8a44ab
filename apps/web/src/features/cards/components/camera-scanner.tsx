import { messages } from '@carteirinha/shared/messages';
import { CameraIcon, CameraOffIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cameraFailureOf, type CameraFailure } from '../lib/camera-failure';
import type { QrScan } from '../lib/qr-scanner';

const s = messages.cardScreens;

const FAILURE_MESSAGES: Record<CameraFailure, string> = {
  denied: s.cameraDenied,
  missing: s.cameraMissing,
  failed: s.cameraFailed,
};

type CameraState = { kind: 'off' } | { kind: 'starting' } | { kind: 'on' } | { kind: 'failed'; failure: CameraFailure };

/** The live preview while the camera is on; the scanner library is imported only now (its own chunk). */
function CameraPreview({ onText, onState }: { onText: (text: string) => void; onState: (state: CameraState) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  // The latest callbacks, read by the scanner without restarting the camera when the parent re-renders.
  const latest = useRef({ onText, onState });
  useEffect(() => {
    latest.current = { onText, onState };
  });

  useEffect(() => {
    let scan: QrScan | null = null;
    let cancelled = false;
    // The reader keeps reading until stopped: only its first text counts.
    let delivered = false;
    const element = video.current;
    if (!element) return;
    void (async () => {
      try {
        const scanner = await import('../lib/qr-scanner');
        const started = await scanner.startQrScan(element, (text) => {
          if (delivered) return;
          delivered = true;
          latest.current.onText(text);
        });
        // Already read (the first frame can hold the QR) or closed meanwhile: the camera goes off at once.
        if (cancelled || delivered) started.stop();
        else {
          scan = started;
          latest.current.onState({ kind: 'on' });
        }
      } catch (error) {
        if (!cancelled) latest.current.onState({ kind: 'failed', failure: cameraFailureOf(error) });
      }
    })();
    return () => {
      cancelled = true;
      scan?.stop();
    };
  }, []);

  return <video ref={video} aria-label={s.cameraPreview} muted playsInline className="aspect-video w-full rounded-lg bg-black object-cover" />;
}

/**
 * 'Ativar Câmera': reads the patient's QR with the device's camera and hands its text over once; the camera goes off
 * after a read. A refused permission is explained in pt-BR.
 */
export function CameraScanner({ onScan }: { onScan: (text: string) => void }) {
  const [state, setState] = useState<CameraState>({ kind: 'off' });
  const active = state.kind === 'starting' || state.kind === 'on';

  /** The preview reports on its start; once the camera was turned off (a read, 'Desligar Câmera') that is stale. */
  function onPreviewState(next: CameraState) {
    setState((current) => (current.kind === 'off' ? current : next));
  }

  function onText(text: string) {
    setState({ kind: 'off' });
    onScan(text);
  }

  return (
    <div className="grid gap-3">
      {active ? <CameraPreview onText={onText} onState={onPreviewState} /> : null}
      {state.kind === 'starting' ? <p className="text-sm text-muted-foreground">{s.cameraStarting}</p> : null}
      {state.kind === 'on' ? <p className="text-sm text-muted-foreground">{s.cameraHint}</p> : null}
      {state.kind === 'failed' ? (
        <p role="alert" className="text-sm text-destructive">
          {FAILURE_MESSAGES[state.failure]}
        </p>
      ) : null}
      <Button type="button" variant="outline" onClick={() => setState(active ? { kind: 'off' } : { kind: 'starting' })}>
        {active ? <CameraOffIcon aria-hidden="true" /> : <CameraIcon aria-hidden="true" />}
        {active ? s.stopCamera : messages.cards.activateCamera}
      </Button>
    </div>
  );
}
