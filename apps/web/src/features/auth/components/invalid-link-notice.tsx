import { messages } from '@carteirinha/shared/messages';
import { TriangleAlertIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** A reset or invitation link that was used, expired or forged: the person asks for a new one. */
export function InvalidLinkNotice() {
  return (
    <div role="alert" data-testid="reset-invalid-token" className="flex flex-col items-center gap-4 text-center">
      <TriangleAlertIcon aria-hidden="true" className="size-8 text-destructive" />
      <p className="text-sm">{messages.auth.resetInvalidToken}</p>
      <Button asChild variant="outline">
        <Link to="/auth">Voltar para o login</Link>
      </Button>
    </div>
  );
}
