import { Outlet } from 'react-router';
import { EmailConfirmedNotice } from '@/features/auth/components/email-confirmed-notice';
import { TenantBranding } from '@/features/tenancy/components/tenant-branding';

/** Wraps every route: the host's branding is applied once, here, whichever page is open; so is the e-mail confirmation's notice. */
export function RootLayout() {
  return (
    <>
      <TenantBranding />
      <EmailConfirmedNotice />
      <Outlet />
    </>
  );
}
