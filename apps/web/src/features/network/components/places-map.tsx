import type { MapTiles } from '@carteirinha/shared/contracts/tenant';
import { messages } from '@carteirinha/shared/messages';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './places-map.css';
import { useEffect, useRef } from 'react';
import { cn } from '@/lib/utils';
import type { LatLng } from '../lib/geo';

const m = messages.network;

/** Where the map opens when it has nothing to show yet: central São Paulo. */
const DEFAULT_CENTER: LatLng = { lat: -23.5505, lng: -46.6333 };
const DEFAULT_ZOOM = 12;
const PLACE_ZOOM = 15;

export type MapPlace = { id: string; name: string; latitude: number; longitude: number };

type PlacesMapProps = {
  tiles: MapTiles;
  /** The places drawn as markers (the patient's network); a marker opens a bubble with the place's name. */
  places?: readonly MapPlace[];
  /** The form's pin: where a click put it, or the typed coordinates. */
  pin?: LatLng | null;
  /** Makes the map a picker: a click moves the pin there. */
  onPick?: (position: LatLng) => void;
  /** The patient's position, once 'Ativar Localização' found it. */
  you?: LatLng | null;
  /** What the map is, for assistive technology. */
  label: string;
  className?: string;
};

/** A marker drawn in CSS (no image files to serve): the pin of a place, or the patient's own dot. */
function pinIcon(kind: 'place' | 'you'): L.DivIcon {
  return L.divIcon({ className: `network-pin network-pin--${kind}`, html: '<span></span>', iconSize: [26, 26], iconAnchor: [13, kind === 'place' ? 26 : 13], popupAnchor: [0, -24] });
}

/** A bubble holding plain text: a place's name is the clinic's input and is never read as HTML. */
function textBubble(text: string): HTMLElement {
  const element = document.createElement('strong');
  element.textContent = text;
  return element;
}

/** A keyboard-reachable marker named for what it marks (Leaflet makes it a focusable button). */
function namedMarker(position: LatLng, name: string, kind: 'place' | 'you'): L.Marker {
  const marker = L.marker([position.lat, position.lng], { icon: pinIcon(kind), title: name, alt: name, keyboard: true });
  marker.on('add', () => marker.getElement()?.setAttribute('aria-label', name));
  return marker;
}

/**
 * The network's map (ADR 024): Leaflet, drawn from the tile server the platform configured, with its attribution.
 * Its code loads only with the screens that show it. Shows the places, the patient's position, or a pin the clinic
 * places by clicking.
 */
export function PlacesMap({ tiles, places = [], pin = null, onPick, you = null, label, className }: PlacesMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const markersRef = useRef<L.LayerGroup | null>(null);
  // The map's click handler is bound once; it calls whichever onPick the latest render gave.
  const pickRef = useRef(onPick);
  useEffect(() => {
    pickRef.current = onPick;
  }, [onPick]);
  const picking = onPick !== undefined;

  // The map itself, once per container; a resize (a dialog opening, the sidebar folding) redraws its tiles.
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const map = L.map(element, { zoomControl: false, center: [DEFAULT_CENTER.lat, DEFAULT_CENTER.lng], zoom: DEFAULT_ZOOM });
    L.control.zoom({ zoomInTitle: m.zoomIn, zoomOutTitle: m.zoomOut }).addTo(map);
    markersRef.current = L.layerGroup().addTo(map);
    map.on('click', (event: L.LeafletMouseEvent) => pickRef.current?.({ lat: event.latlng.lat, lng: event.latlng.lng }));
    mapRef.current = map;
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      // A page left mid-animation would have Leaflet finish it on a removed map: stop it first.
      map.stop();
      map.remove();
      mapRef.current = null;
      markersRef.current = null;
    };
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return undefined;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
    return () => {
      // On unmount the map may already be gone with its panes (its own cleanup ran first): nothing left to detach.
      if (mapRef.current) layer.remove();
    };
  }, [tiles.url, tiles.attribution]);

  // Markers and the view follow what is shown: every place (and the patient) in view, or the pin at street level.
  // Moved without animation: the screen may be left at once, and Leaflet then finishes no animation on a removed map.
  const placesKey = places.map((place) => `${place.id}:${place.latitude}:${place.longitude}`).join('|');
  useEffect(() => {
    const map = mapRef.current;
    const markers = markersRef.current;
    if (!map || !markers) return;
    markers.clearLayers();
    const points: L.LatLngTuple[] = [];
    for (const place of places) {
      namedMarker({ lat: place.latitude, lng: place.longitude }, place.name, 'place').bindPopup(textBubble(place.name)).addTo(markers);
      points.push([place.latitude, place.longitude]);
    }
    if (you) {
      namedMarker(you, m.youAreHere, 'you').addTo(markers);
      points.push([you.lat, you.lng]);
    }
    if (pin) {
      namedMarker(pin, m.pinTitle, 'place').addTo(markers);
      map.setView([pin.lat, pin.lng], Math.max(map.getZoom(), PLACE_ZOOM), { animate: false });
    } else if (points.length === 1 && points[0]) {
      map.setView(points[0], PLACE_ZOOM, { animate: false });
    } else if (points.length > 1) {
      map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: PLACE_ZOOM, animate: false });
    }
    // `places` is read through its key: a new array with the same places neither redraws nor moves the map.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [placesKey, pin?.lat, pin?.lng, you?.lat, you?.lng]);

  return (
    <div
      ref={container}
      role="region"
      aria-label={label}
      data-picking={picking ? 'true' : undefined}
      // Its own stacking context: Leaflet's panes and controls (z-index up to 1000) stay under dialogs and menus.
      className={cn('isolate z-0 h-72 w-full overflow-hidden rounded-lg border sm:h-96', picking && 'cursor-crosshair', className)}
    />
  );
}
