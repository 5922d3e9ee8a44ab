import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';

/** Any path the router does not know (specification §2 "Not-found screen"); the missing path is logged. */
export function NotFoundPage() {
  const location = useLocation();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted">
      <div className="text-center">
        <h1 className="mb-4 text-4xl font-bold">404</h1>
        <p className="mb-4 text-xl text-muted-foreground">Oops! Page not found</p>
        <Link to="/" className="text-primary-text underline underline-offset-4 hover:no-underline">
          Return to Home
        </Link>
      </div>
    </main>
  );
}
