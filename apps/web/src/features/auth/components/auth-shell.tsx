import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** The centred frame of the sign-in and password pages, with the way back to the landing page. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/60 p-4">
      <div className="flex w-full max-w-md flex-col gap-4">
        <Button asChild variant="ghost" className="self-start">
          <Link to="/">
            <ArrowLeftIcon aria-hidden="true" />
            Voltar para home
          </Link>
        </Button>
        {children}
      </div>
    </main>
  );
}
