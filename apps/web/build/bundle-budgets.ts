import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The JavaScript budgets the build enforces (README, "The landing page, JavaScript budgets and serving"). A route's initial JavaScript is what a first visit
 * to it loads before any interaction: the scripts of the HTML page that serves it (and their static imports), plus
 * the lazily loaded modules the router loads for it (and theirs), gzipped. Code loaded later — on a click, when a
 * dialog opens, when the camera starts — is not initial, and that is where heavy libraries belong.
 */

/** One chunk of the client build, as the budgets see it. */
export type BuiltChunk = {
  fileName: string;
  /** The module the chunk stands for: the entry script of an HTML page, or a lazily imported module. */
  facadeModuleId: string | null;
  /** Chunks imported statically: they load with this one. */
  imports: readonly string[];
  /** Chunks imported with `import()`: they load later, when the code asks for them. */
  dynamicImports: readonly string[];
  /** Every source module bundled into the chunk (absolute paths; packages under node_modules). */
  moduleIds: readonly string[];
  gzipBytes: number;
};

/** An HTML page of the build and the chunks its tags load (module scripts and module preloads). */
export type BuiltPage = { fileName: string; scripts: readonly string[] };

export type BuildGraph = { chunks: ReadonlyMap<string, BuiltChunk>; pages: readonly BuiltPage[] };

/** A route as a first visit reaches it: the page the server answers with, and what the router loads lazily. */
export type BudgetRoute = {
  path: string;
  /** The HTML page that serves this route: the SPA's index.html, or the server-rendered landing's template. */
  page: string;
  /** The lazily loaded modules of the route, outermost first (guard, layout, page), relative to apps/web. */
  lazy: readonly string[];
};

/**
 * `maxKiB` is what the build enforces on each route; `goalKiB`, when lower, is where the budget should come down to,
 * and the build prints how far each route is from it.
 */
export type Budget = { name: string; maxKiB: number; goalKiB?: number; routes: readonly BudgetRoute[] };

/** A kind of heavy code no route may load before it needs it, by the packages that provide it. */
export type HeavyCode = { name: string; packages: readonly string[] };

/** A module the app entry imports lazily that is not a route: it loads after the first paint, and says why. */
export type DeferredModule = { module: string; why: string };

export type BudgetRules = { budgets: readonly Budget[]; heavy: readonly HeavyCode[]; deferred: readonly DeferredModule[] };

export type RouteMeasure = { budget: string; path: string; gzipBytes: number; maxBytes: number; goalBytes: number; chunks: string[] };

/** What a deferred module adds once it loads, beyond what the entry already has. */
export type DeferredMeasure = { module: string; why: string; gzipBytes: number };

export type BudgetReport = { routes: RouteMeasure[]; deferred: DeferredMeasure[]; failures: string[] };

const KIB = 1024;

/** Where the build writes each SPA route's chunks for the server to preload (`routePreloadsOf`). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/** Gzip as the server sends it: level 9 (build/precompress.ts writes the same files). */
export function gzipSize(code: string | Uint8Array): number {
  return zlib.gzipSync(code, { level: 9 }).length;
}

export function formatKiB(bytes: number): string {
  return `${(bytes / KIB).toFixed(1)} KiB`;
}

/** The chunks `roots` load before anything else runs: themselves and, transitively, their static imports. */
export function staticClosure(graph: BuildGraph, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let fileName = pending.pop(); fileName !== undefined; fileName = pending.pop()) {
    if (seen.has(fileName)) continue;
    seen.add(fileName);
    pending.push(...(graph.chunks.get(fileName)?.imports ?? []));
  }
  return seen;
}

function lazyChunkOf(graph: BuildGraph, root: string, moduleId: string): string | null {
  const absolute = path.resolve(root, moduleId);
  for (const chunk of graph.chunks.values()) if (chunk.facadeModuleId === absolute) return chunk.fileName;
  return null;
}

/** The initial chunks of one route, or why they cannot be known (a page or module the build does not have). */
function routeChunks(graph: BuildGraph, root: string, route: BudgetRoute): { chunks: Set<string> } | { problem: string } {
  const page = graph.pages.find((candidate) => candidate.fileName === route.page);
  if (!page) return { problem: `${route.path}: the build has no page ${route.page}` };
  const roots = [...page.scripts];
  for (const moduleId of route.lazy) {
    const chunk = lazyChunkOf(graph, root, moduleId);
    if (!chunk) return { problem: `${route.path}: ${moduleId} is not a lazily loaded chunk of the build (moved, renamed, or no longer lazy?)` };
    roots.push(chunk);
  }
  return { chunks: staticClosure(graph, roots) };
}

/**
 * The lazily loaded modules the app's entry knows, by the chunks the pages' entry scripts import dynamically: the
 * router's routes, guards and layouts (each some route's first load, so each must be measured by a budget), and the
 * few deferred modules that are no route.
 */
function routerLazyChunks(graph: BuildGraph): Set<string> {
  const entries = staticClosure(graph, graph.pages.flatMap((page) => page.scripts));
  const lazy = new Set<string>();
  for (const fileName of entries) for (const dynamic of graph.chunks.get(fileName)?.dynamicImports ?? []) lazy.add(dynamic);
  return lazy;
}

function packageOf(moduleId: string): string | null {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleId.replaceAll('\\', '/'));
  return match?.[1] ?? null;
}

/** Heavy packages bundled into the chunks a route loads first: "QR scanner (@zxing/browser) in assets/x.js". */
function heavyCodeIn(graph: BuildGraph, chunks: Iterable<string>, heavy: readonly HeavyCode[]): string[] {
  const found = new Set<string>();
  for (const fileName of chunks) {
    for (const moduleId of graph.chunks.get(fileName)?.moduleIds ?? []) {
      const name = packageOf(moduleId);
      const kind = name === null ? undefined : heavy.find((candidate) => candidate.packages.includes(name));
      if (kind) found.add(`${kind.name} (${name}) in ${fileName}`);
    }
  }
  return [...found];
}

/**
 * Measures every budgeted route and lists what breaks the rules: a route over its budget, heavy code (map, charts,
 * QR scanner, PDF) in what any route loads first, and a lazily loaded route no budget measures.
 */
export function checkBudgets(graph: BuildGraph, { budgets, heavy, deferred }: BudgetRules, root: string): BudgetReport {
  const routes: RouteMeasure[] = [];
  const failures: string[] = [];
  const measured = new Set<string>();
  const deferredMeasures: DeferredMeasure[] = [];
  const entries = staticClosure(graph, graph.pages.flatMap((page) => page.scripts));
  for (const { module, why } of deferred) {
    const chunk = lazyChunkOf(graph, root, module);
    if (!chunk) {
      failures.push(`deferred: ${module} is not a lazily loaded chunk of the build (moved, renamed, or no longer lazy?)`);
      continue;
    }
    measured.add(chunk);
    const added = [...staticClosure(graph, [chunk])].filter((fileName) => !entries.has(fileName));
    deferredMeasures.push({ module, why, gzipBytes: added.reduce((sum, fileName) => sum + (graph.chunks.get(fileName)?.gzipBytes ?? 0), 0) });
  }
  for (const budget of budgets) {
    const maxBytes = budget.maxKiB * KIB;
    for (const route of budget.routes) {
      const result = routeChunks(graph, root, route);
      if ('problem' in result) {
        failures.push(`${budget.name}: ${result.problem}`);
        continue;
      }
      for (const chunk of result.chunks) measured.add(chunk);
      const chunks = [...result.chunks].sort();
      const gzipBytes = chunks.reduce((sum, fileName) => sum + (graph.chunks.get(fileName)?.gzipBytes ?? 0), 0);
      routes.push({ budget: budget.name, path: route.path, gzipBytes, maxBytes, goalBytes: (budget.goalKiB ?? budget.maxKiB) * KIB, chunks });
      if (gzipBytes > maxBytes) {
        failures.push(`${budget.name}: ${route.path} loads ${formatKiB(gzipBytes)} of JavaScript (gzip) first, over its ${budget.maxKiB} KiB budget`);
      }
    }
  }
  const firstLoads = staticClosure(graph, [...graph.pages.flatMap((page) => page.scripts), ...routerLazyChunks(graph)]);
  for (const found of heavyCodeIn(graph, firstLoads, heavy)) {
    failures.push(`heavy code in a route's first load: ${found}; load it with import() when the screen needs it`);
  }
  for (const lazy of routerLazyChunks(graph)) {
    if (!measured.has(lazy)) {
      const facade = graph.chunks.get(lazy)?.facadeModuleId;
      const name = facade ? path.relative(root, facade) : lazy;
      failures.push(`${name} is loaded lazily by the app's entry but no budget measures it: add its route (or, if it is no route, its reason to load after the first paint) to build/budgets.ts`);
    }
  }
  return { routes, deferred: deferredMeasures, failures };
}

/**
 * For each SPA route, the chunks a first visit loads beyond the SPA page's own scripts: the router finds them one
 * after the other (guard, then layout, then page), so the server names them in the page as module preloads and the
 * browser fetches them at once (plugins/spa.ts). Only real routes (paths, not the budgets' labels such as
 * "* (not found)"), and only those the SPA page serves.
 */
export function routePreloadsOf(graph: BuildGraph, budgets: readonly Budget[], report: BudgetReport, spaPage = 'index.html'): Record<string, string[]> {
  const entry = staticClosure(graph, graph.pages.find((page) => page.fileName === spaPage)?.scripts ?? []);
  const spaRoutes = new Set(budgets.flatMap((budget) => budget.routes.filter((route) => route.page === spaPage && /^\/[^ ]*$/.test(route.path)).map((route) => route.path)));
  const preloads: Record<string, string[]> = {};
  for (const route of report.routes) {
    if (!spaRoutes.has(route.path)) continue;
    const extra = route.chunks.filter((chunk) => !entry.has(chunk));
    if (extra.length > 0) preloads[route.path] = extra;
  }
  return preloads;
}

/** The module scripts and module preloads of an HTML page, as file names of the build. */
export function scriptsOfHtml(html: string, base = '/'): string[] {
  const scripts: string[] = [];
  const tag = /<(script|link)\b[^>]*>/gi;
  for (const match of html.matchAll(tag)) {
    const element = match[0];
    const isModuleScript = match[1]?.toLowerCase() === 'script' && /\btype=["']?module/i.test(element);
    const isModulePreload = match[1]?.toLowerCase() === 'link' && /\brel=["']?modulepreload/i.test(element);
    if (!isModuleScript && !isModulePreload) continue;
    const url = /\b(?:src|href)=["']([^"']+)["']/i.exec(element)?.[1];
    if (url?.startsWith(base)) scripts.push(url.slice(base.length));
  }
  return scripts;
}

function reportTable(report: BudgetReport): string {
  const width = Math.max(...report.routes.map((route) => route.path.length), 10);
  const lines = report.routes.map((route) => {
    const goal = route.goalBytes < route.maxBytes ? `  (goal ${formatKiB(route.goalBytes)}${route.gzipBytes > route.goalBytes ? ', not met' : ''})` : '';
    return `  ${route.budget.padEnd(16)} ${route.path.padEnd(width)} ${formatKiB(route.gzipBytes).padStart(10)} / ${formatKiB(route.maxBytes)}${goal}`;
  });
  const deferred = report.deferred.map((measure) => `  ${measure.module}: ${formatKiB(measure.gzipBytes)} (${measure.why})`);
  return ['initial JavaScript per route (gzip), against its budget:', ...lines, 'loaded after the first paint, on every route:', ...deferred].join('\n');
}

type BundleOutput = Parameters<NonNullable<Extract<Plugin['generateBundle'], (...args: never[]) => unknown>>>[1];

/** The budgets' view of Rolldown's output. */
export function graphOfBundle(bundle: BundleOutput): BuildGraph {
  const chunks = new Map<string, BuiltChunk>();
  const pages: BuiltPage[] = [];
  for (const output of Object.values(bundle)) {
    if (output.type === 'chunk') {
      chunks.set(output.fileName, {
        fileName: output.fileName,
        facadeModuleId: output.facadeModuleId,
        imports: output.imports,
        dynamicImports: output.dynamicImports,
        moduleIds: output.moduleIds,
        gzipBytes: gzipSize(output.code),
      });
    } else if (output.fileName.endsWith('.html')) {
      const html = typeof output.source === 'string' ? output.source : new TextDecoder().decode(output.source);
      pages.push({ fileName: output.fileName, scripts: scriptsOfHtml(html) });
    }
  }
  return { chunks, pages };
}

/**
 * Fails the client build when a route's initial JavaScript is over its budget, or when it loads heavy code. Writes
 * the measures to `.vite/bundle-budgets.json` (not served: dot folders are not) and prints them, and each route's
 * chunks to preload to `.vite/route-preloads.json`.
 */
export function bundleBudgets(options: BudgetRules & { root: string }): Plugin {
  return {
    name: 'carteirinha:bundle-budgets',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    // After Vite's HTML plugin has written the pages' script tags.
    enforce: 'post',
    generateBundle(_outputOptions, bundle) {
      const graph = graphOfBundle(bundle);
      const report = checkBudgets(graph, options, options.root);
      this.emitFile({ type: 'asset', fileName: '.vite/bundle-budgets.json', source: `${JSON.stringify(report, null, 2)}\n` });
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(routePreloadsOf(graph, options.budgets, report), null, 2)}\n` });
      this.info(reportTable(report));
      if (report.failures.length > 0) this.error(`JavaScript budgets exceeded:\n- ${report.failures.join('\n- ')}`);
    },
  };
}
