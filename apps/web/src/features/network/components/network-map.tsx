import { messages } from '@carteirinha/shared/messages';
import { Suspense, type ComponentProps } from 'react';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { lazyComponent } from '@/lib/lazy-component';

// Leaflet and its styles arrive with the first map drawn, never with a page's first load (ADR 024).
const PlacesMap = lazyComponent(() => import('./places-map'), (module) => module.PlacesMap);

type NetworkMapProps = Omit<ComponentProps<typeof PlacesMap>, 'tiles'>;

function MapPlaceholder({ text }: { text: string }) {
  return <div className="flex h-72 w-full items-center justify-center rounded-lg border bg-muted text-sm text-muted-foreground sm:h-96">{text}</div>;
}

/** The network's map with the tiles the platform configured (GET /api/tenant), loaded on first use. */
export function NetworkMap(props: NetworkMapProps) {
  const tiles = useTenant().data?.mapTiles;
  if (!tiles) return <MapPlaceholder text={messages.network.mapLoading} />;
  return (
    <Suspense fallback={<MapPlaceholder text={messages.network.mapLoading} />}>
      <PlacesMap tiles={tiles} {...props} />
    </Suspense>
  );
}
