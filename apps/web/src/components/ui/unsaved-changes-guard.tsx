import { messages } from '@carteirinha/shared/messages';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';

const m = messages.common;

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

  return (
    <AlertDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{m.unsavedTitle}</AlertDialogTitle>
          <AlertDialogDescription>{m.unsavedDescription}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.unsavedStay}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            onClick={(event) => {
              // The navigation itself closes the question; closing it first would cancel the navigation.
              event.preventDefault();
              blocker.proceed?.();
            }}
          >
            {m.unsavedLeave}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
