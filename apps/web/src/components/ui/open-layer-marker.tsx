import { useEffect } from 'react';
import { registerOpenLayer } from '@/lib/overlay-focus';

/** Rendered inside a modal layer's content, which Radix mounts only while it is open: counts the layer as open. */
export function OpenLayerMarker() {
  useEffect(() => registerOpenLayer(), []);
  return null;
}
