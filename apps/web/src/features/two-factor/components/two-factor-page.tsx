import { messages } from '@carteirinha/shared/messages';
import { LogOutIcon, ShieldCheckIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSignOut } from '@/app/use-sign-out';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardIconHeader } from '@/components/ui/card';

/** The full-page frame shown instead of a portal while the session owes its second factor, with a way out. */
export function TwoFactorPage({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const signOut = useSignOut();
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/60 p-4">
      <Card className="w-full max-w-lg">
        <CardIconHeader icon={ShieldCheckIcon} title={title} description={description} level={1} titleClassName="text-xl" />
        <CardContent className="grid gap-6">
          {children}
          <Button type="button" variant="ghost" className="justify-self-start" onClick={() => signOut.mutate()}>
            <LogOutIcon aria-hidden="true" />
            {messages.sidebar.signOut}
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
