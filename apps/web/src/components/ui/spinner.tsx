import { messages } from '@carteirinha/shared/messages';
import { Loader2Icon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** A spinning indicator announced to screen readers as "Carregando...". */
export function Spinner({ className, label = messages.common.loading, ...props }: ComponentProps<'span'> & { label?: string }) {
  return (
    <span role="status" aria-label={label} data-slot="spinner" className={cn('inline-flex', className)} {...props}>
      <Loader2Icon aria-hidden="true" className="size-6 animate-spin text-primary" />
    </span>
  );
}

/** A spinner centred in the space of what is loading (a card, a dialog's body). */
export function CenteredSpinner() {
  return (
    <div className="flex justify-center py-8">
      <Spinner />
    </div>
  );
}

/** A spinner centred on the whole screen, for the moment before we know who is signed in. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-svh items-center justify-center">
      <Spinner />
    </div>
  );
}
