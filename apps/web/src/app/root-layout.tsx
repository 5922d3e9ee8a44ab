import { Outlet } from 'react-router';
import { TenantBranding } from '@/features/tenant/components/tenant-branding';

/** Wraps every route: the host's branding is applied once, here, whichever page is open. */
export function RootLayout() {
  return (
    <>
      <TenantBranding />
      <Outlet />
    </>
  );
}
