import { chromiumLaunchOptions } from '../chromium';
import { expect, expectAccessible, test } from '../fixtures';
import { ADMIN_SCENARIOS } from '../accessibility/admin-pages';
import { CLINIC_SCENARIOS } from '../accessibility/clinic-pages';
import { PATIENT_SCENARIOS } from '../accessibility/patient-pages';
import { PUBLIC_SCENARIOS } from '../accessibility/public-pages';
import type { Scenario } from '../accessibility/scenario';
import { webRoutePaths } from '../web-routes';

/**
 * Accessibility, checked once per state: every page of the web app in each state a person meets there (each role's
 * pages, dialogs open, form errors, toasts, the valid, invalid and inactive validation panels, loading, empty and error
 * states, phone and desktop), with axe-core. Serious and critical findings fail (fixtures.ts, expectAccessible). The
 * other specs test behaviour only; this one replaced the axe run at the end of every test and in every visit(), and
 * checks every state those runs checked (e2e/ACCESSIBILITY.md keeps the inventory).
 *
 * The route table is the scenarios' states grouped by page: the first test below fails when the web router has a page
 * without a state here, or a state names a page the router no longer has.
 */

// A camera is there (Chromium's fake one) for the state of a refused camera permission; no other state opens it.
test.use({ launchOptions: chromiumLaunchOptions(['--use-fake-device-for-media-stream']) });

const SCENARIOS: readonly Scenario[] = [...PUBLIC_SCENARIOS, ...ADMIN_SCENARIOS, ...CLINIC_SCENARIOS, ...PATIENT_SCENARIOS];

const SEPARATOR = ' — ';

function routeOf(state: string): string {
  const at = state.indexOf(SEPARATOR);
  if (at <= 0) throw new Error(`"${state}" does not name its page: write '<router path>${SEPARATOR}<what is on screen>'`);
  return state.slice(0, at);
}

/** Each page of the router with the states checked there, in the order of the scenarios. */
function routeTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const state of SCENARIOS.flatMap((scenario) => scenario.states)) {
    const route = routeOf(state);
    table.set(route, [...(table.get(route) ?? []), state.slice(route.length + SEPARATOR.length)]);
  }
  return table;
}

test('every page of the web router has its states in the table, and every state is checked once', () => {
  const table = routeTable();
  expect([...table.keys()].sort(), 'pages of apps/web/src/app/router.tsx and pages of this table').toEqual(webRoutePaths());
  const states = SCENARIOS.flatMap((scenario) => scenario.states);
  expect(states.filter((state, index) => states.indexOf(state) !== index), 'states checked twice').toEqual([]);
});

/**
 * What one state may take on a loaded 2-core machine: reaching it (sign-in, a payment, a dialog) and its analysis. 4 s
 * was enough until a slower machine (27/11, ci33: the same run 3.3 times as long) took the two longest walks past it;
 * the room only matters when something is slow.
 */
const SECONDS_PER_STATE = 8;

for (const scenario of SCENARIOS) {
  test.describe(() => {
    if (scenario.allowConsoleErrors) test.use({ allowConsoleErrors: scenario.allowConsoleErrors });

    test(scenario.name, { tag: scenario.platformWide ? '@platform-wide' : [] }, async ({ page, context, browser, playwright, baseURL, signInAs }) => {
      // A scenario walks many states, each an axe analysis after real work: it gets room in proportion to them.
      test.setTimeout(Math.max(90_000, scenario.states.length * SECONDS_PER_STATE * 1000));
      if (!baseURL) throw new Error('no baseURL: playwright.config.ts sets it');
      const checked: string[] = [];
      const check = async (state: string, on = page) => {
        expect(state, `the next state of "${scenario.name}"`).toBe(scenario.states[checked.length]);
        await test.step(`axe: ${state}`, () => expectAccessible(on));
        checked.push(state);
      };
      await scenario.run({ page, context, browser, playwright, baseURL, signInAs, check });
      expect(checked, 'states the scenario checked').toEqual(scenario.states);
    });
  });
}
