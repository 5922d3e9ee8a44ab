import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A component whose code loads the first time it is drawn (under a Suspense boundary): a dialog, a screen only some
 * visits reach. Its module and what only it imports become a chunk of their own, out of the page's first load
 * (README, "The landing page, JavaScript budgets and serving"). `pick` names the export, so a renamed component is a type error here, not a blank screen.
 */
export function lazyComponent<Module, Props extends object>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<Props>,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: pick(await load()) }));
}
