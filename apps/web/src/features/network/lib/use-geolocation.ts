import { useState } from 'react';
import type { LatLng } from './geo';

export type LocationState =
  | { kind: 'off' }
  | { kind: 'locating' }
  | { kind: 'on'; position: LatLng }
  | { kind: 'denied' }
  | { kind: 'unsupported' };

/** How long the browser may take to answer; a phone finding a fix indoors can take a while. */
const LOCATE_TIMEOUT_MS = 30_000;

/**
 * 'Ativar Localização': asks the browser for the position once, when the patient asks (never on page load), and keeps
 * it for the search. A refusal or a failure says so; the list stays in its plain order.
 */
export function useGeolocation() {
  const [state, setState] = useState<LocationState>({ kind: 'off' });
  const locate = () => {
    if (!('geolocation' in navigator)) {
      setState({ kind: 'unsupported' });
      return;
    }
    setState({ kind: 'locating' });
    navigator.geolocation.getCurrentPosition(
      (found) => setState({ kind: 'on', position: { lat: found.coords.latitude, lng: found.coords.longitude } }),
      (failure) => {
        console.warn('Localização indisponível', failure.message);
        setState({ kind: 'denied' });
      },
      { enableHighAccuracy: false, timeout: LOCATE_TIMEOUT_MS, maximumAge: 60_000 },
    );
  };
  return { state, locate, position: state.kind === 'on' ? state.position : null };
}
