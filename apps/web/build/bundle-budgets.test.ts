import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleBudgets, checkBudgets, routePreloadsOf, scriptsOfHtml, type BuildGraph, type BuiltChunk, type BudgetRules } from './bundle-budgets.ts';

const ROOT = '/app';
const KIB = 1024;

function chunk(fileName: string, kib: number, more: Partial<BuiltChunk> = {}): BuiltChunk {
  return { fileName, facadeModuleId: null, imports: [], dynamicImports: [], moduleIds: [], gzipBytes: kib * KIB, ...more };
}

/**
 * A small app as the build sees it: index.html loads the entry (which imports React's chunk); the router loads the
 * sign-in page and the clinic's guard and page lazily; the validation page imports the QR scanner only with import().
 */
function fixture(): BuildGraph {
  const chunks = [
    chunk('assets/index.js', 40, {
      facadeModuleId: `${ROOT}/index.html`,
      imports: ['assets/react.js'],
      dynamicImports: ['assets/auth-page.js', 'assets/role-guard.js', 'assets/validate-page.js'],
      moduleIds: [`${ROOT}/src/main.tsx`],
    }),
    chunk('assets/react.js', 60, { moduleIds: ['/app/node_modules/react-dom/index.js'] }),
    chunk('assets/auth-page.js', 20, { facadeModuleId: `${ROOT}/src/auth-page.tsx`, imports: ['assets/forms.js'] }),
    chunk('assets/forms.js', 15),
    chunk('assets/role-guard.js', 2, { facadeModuleId: `${ROOT}/src/role-guard.tsx` }),
    chunk('assets/validate-page.js', 10, { facadeModuleId: `${ROOT}/src/validate-page.tsx`, dynamicImports: ['assets/qr-scanner.js'] }),
    chunk('assets/qr-scanner.js', 125, { facadeModuleId: `${ROOT}/src/qr-scanner.ts`, moduleIds: ['/app/node_modules/@zxing/browser/index.js'] }),
  ];
  return {
    chunks: new Map(chunks.map((built) => [built.fileName, built])),
    pages: [
      { fileName: 'index.html', scripts: ['assets/index.js', 'assets/react.js'] },
      { fileName: 'landing.html', scripts: [] },
    ],
  };
}

function rules(limits: { signIn: number; clinic: number }): BudgetRules {
  return {
    budgets: [
      { name: 'landing', maxKiB: 60, routes: [{ path: '/', page: 'landing.html', lazy: [] }] },
      { name: 'sign-in', maxKiB: limits.signIn, routes: [{ path: '/auth', page: 'index.html', lazy: ['src/auth-page.tsx'] }] },
      { name: 'clinic', maxKiB: limits.clinic, routes: [{ path: '/clinica/validar', page: 'index.html', lazy: ['src/role-guard.tsx', 'src/validate-page.tsx'] }] },
    ],
    heavy: [{ name: 'QR scanner', packages: ['@zxing/browser'] }],
    deferred: [],
  };
}

describe('checkBudgets', () => {
  it("measures each route's first load: its page's scripts and its lazy modules, with their static imports", () => {
    const report = checkBudgets(fixture(), rules({ signIn: 150, clinic: 170 }), ROOT);
    expect(report.failures).toEqual([]);
    const measured = Object.fromEntries(report.routes.map((route) => [route.path, route.gzipBytes / KIB]));
    // The landing's template loads no script; the QR scanner (imported with import()) is no page's first load.
    expect(measured).toEqual({ '/': 0, '/auth': 40 + 60 + 20 + 15, '/clinica/validar': 40 + 60 + 2 + 10 });
  });

  it('fails a route over its budget, naming it and its size', () => {
    const report = checkBudgets(fixture(), rules({ signIn: 130, clinic: 170 }), ROOT);
    expect(report.failures).toEqual(['sign-in: /auth loads 135.0 KiB of JavaScript (gzip) first, over its 130 KiB budget']);
  });

  it('fails when heavy code is in what a route loads first', () => {
    const graph = fixture();
    const page = graph.chunks.get('assets/validate-page.js')!;
    // The page now imports the scanner statically: it would load with the page, before 'Ativar Câmera'.
    const chunks = new Map(graph.chunks).set(page.fileName, { ...page, imports: ['assets/qr-scanner.js'], dynamicImports: [] });
    const report = checkBudgets({ ...graph, chunks }, rules({ signIn: 150, clinic: 1000 }), ROOT);
    expect(report.failures).toEqual([
      "heavy code in a route's first load: QR scanner (@zxing/browser) in assets/qr-scanner.js; load it with import() when the screen needs it",
    ]);
  });

  it('fails when a lazily loaded route is measured by no budget, or a budget names a module the build lacks', () => {
    const withoutClinic = rules({ signIn: 150, clinic: 170 });
    const report = checkBudgets(fixture(), { ...withoutClinic, budgets: withoutClinic.budgets.slice(0, 2) }, ROOT);
    expect(report.failures).toEqual([
      'src/role-guard.tsx is loaded lazily by the app\'s entry but no budget measures it: add its route (or, if it is no route, its reason to load after the first paint) to build/budgets.ts',
      'src/validate-page.tsx is loaded lazily by the app\'s entry but no budget measures it: add its route (or, if it is no route, its reason to load after the first paint) to build/budgets.ts',
    ]);

    const renamed = rules({ signIn: 150, clinic: 170 });
    const moved = { ...renamed, budgets: renamed.budgets.map((budget) => ({ ...budget, routes: budget.routes.map((route) => ({ ...route, lazy: route.lazy.map((module) => module.replace('auth-page', 'sign-in-page')) })) })) };
    expect(checkBudgets(fixture(), moved, ROOT).failures).toContain(
      'sign-in: /auth: src/sign-in-page.tsx is not a lazily loaded chunk of the build (moved, renamed, or no longer lazy?)',
    );
  });

  it('measures a deferred module apart, by what it adds to the entry', () => {
    const graph = fixture();
    const report = checkBudgets(graph, { ...rules({ signIn: 150, clinic: 170 }), deferred: [{ module: 'src/auth-page.tsx', why: 'a test' }] }, ROOT);
    expect(report.deferred).toEqual([{ module: 'src/auth-page.tsx', why: 'a test', gzipBytes: 35 * KIB }]);
  });
});

describe('routePreloadsOf', () => {
  it("names each SPA route's chunks beyond the page's own scripts, never the landing's or the QR scanner loaded later", () => {
    const budgetRules = rules({ signIn: 150, clinic: 170 });
    const report = checkBudgets(fixture(), budgetRules, ROOT);
    expect(routePreloadsOf(fixture(), budgetRules.budgets, report)).toEqual({
      '/auth': ['assets/auth-page.js', 'assets/forms.js'],
      '/clinica/validar': ['assets/role-guard.js', 'assets/validate-page.js'],
    });
  });
});

describe('scriptsOfHtml', () => {
  it('reads the module scripts and module preloads of a page, not its stylesheet', () => {
    const html = `<head><script type="module" crossorigin src="/assets/index-a1.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-b2.js"><link rel="stylesheet" href="/assets/index-c3.css"></head>`;
    expect(scriptsOfHtml(html)).toEqual(['assets/index-a1.js', 'assets/react-b2.js']);
  });
});

/** `npm run build` fails when a budget is exceeded: a real Vite build of a tiny app, with the plugin. */
describe('the budget plugin in a build', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-budget-'));
    await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><html><body><script type="module" src="/main.ts"></script></body></html>');
    // About 3 KiB gzipped: words that do not repeat compress poorly.
    const words = Array.from({ length: 600 }, (_, index) => `palavra${index * 7919}`);
    await fs.writeFile(path.join(dir, 'main.ts'), `document.body.textContent = ${JSON.stringify(words)}.join(' ');\n`);
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function buildWithBudget(maxKiB: number) {
    return build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      build: { outDir: path.join(dir, 'dist'), emptyOutDir: true, write: false },
      plugins: [bundleBudgets({ root: dir, heavy: [], deferred: [], budgets: [{ name: 'tiny', maxKiB, routes: [{ path: '/', page: 'index.html', lazy: [] }] }] })],
    });
  }

  it('fails the build when the page loads more than its budget', async () => {
    await expect(buildWithBudget(1)).rejects.toThrow(/JavaScript budgets exceeded:\n- tiny: \/ loads \d+\.\d KiB of JavaScript \(gzip\) first, over its 1 KiB budget/);
  });

  it('passes it within the budget', async () => {
    await expect(buildWithBudget(10)).resolves.toBeDefined();
  });
});
