import { useEffect, useState } from 'react';
import type { LatLng } from './geo';

export type LocationState =
  | { kind: 'off' }
  | { kind: 'locating' }
  | { kind: 'on'; position: LatLng }
  | { kind: 'denied' }
  | { kind: 'unsupported' };

/** How long the browser may take to answer; a phone finding a fix indoors can take a while. */
const LOCATE_TIMEOUT_MS = 30_000;

/** Whether the patient already let this site use the position (Permissions API; unknown where there is none). */
async function positionAlreadyGranted(): Promise<boolean> {
  if (!('permissions' in navigator)) return false;
  try {
    return (await navigator.permissions.query({ name: 'geolocation' })).state === 'granted';
  } catch {
    return false;
  }
}

/**
 * 'Ativar Localização': asks the browser for the position when the patient asks, and keeps it for the search. Once the
 * patient has allowed it, the permission is remembered (issue 29): the page locates on open without asking again,
 * never prompting on load. A refusal or a failure says so; the list stays in its plain order.
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
  useEffect(() => {
    let open = true;
    void positionAlreadyGranted().then((granted) => {
      if (granted && open) locate();
    });
    return () => {
      open = false;
    };
    // On open only: a remembered permission is read once per visit.
  }, []);
  return { state, locate, position: state.kind === 'on' ? state.position : null };
}
