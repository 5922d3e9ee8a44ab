import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { LoadWhenOpen } from '@/components/load-when-open';
import { lazyComponent } from '@/lib/lazy-component';

// The question loads the first time it is asked: a form page's first load does not carry the dialog.
const UnsavedChangesDialog = lazyComponent(() => import('./unsaved-changes-dialog'), (m) => m.UnsavedChangesDialog);

/**
 * Put on a form page: while `when` holds (the form has changes not saved), leaving asks first — a link or 'Voltar'
 * inside the app asks in a dialog ('Continuar editando' / 'Sair sem salvar'); a reload, a closed tab or another site
 * gets the browser's own question (`beforeunload`). Changes of the query string alone (a filter) do not ask.
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  // Saved (or undone) while the question was open: nothing is lost any more, so the navigation goes on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  const blocked = blocker.state === 'blocked';
  return (
    <LoadWhenOpen open={blocked}>
      <UnsavedChangesDialog
        open={blocked}
        onStay={() => {
          if (blocker.state === 'blocked') blocker.reset();
        }}
        onLeave={() => blocker.proceed?.()}
      />
    </LoadWhenOpen>
  );
}
