// @ts-check
/**
 * `carteirinha/import-boundaries`: the imports the architecture forbids (ADR 016).
 *
 * - the web never imports the server (types and schemas cross through packages/shared);
 * - packages/shared imports neither app;
 * - a module's repository.ts (its SQL) is imported only inside its own module, apps/server/src/modules/<m>/;
 * - a page (features/<f>/pages/) is imported only by app/, where the router opens it (ADR 015).
 *
 * Imports that break a boundary today are listed, each with the issue that will remove it, in
 * lint/boundary-allow-list.json; anything else is an error, and so is an entry that no longer matches an import.
 * Specifiers are resolved by path alone (relative paths, the web's `@/`, the `@carteirinha/*` workspaces), without
 * touching the file system: these are the only forms the code base uses to reach its own files.
 */
import path from 'node:path';

/** @typedef {{ file: string, imports: string, issue: number, why: string }} AllowedImport */
/** @typedef {{ root: string, allowed?: AllowedImport[] }} Options */

/** Where each workspace package lives; `@carteirinha/shared/<x>` is its `src/<x>.ts` (its package.json exports). */
const WORKSPACES = new Map([
  ['shared', { dir: 'packages/shared', subpaths: 'packages/shared/src' }],
  ['server', { dir: 'apps/server', subpaths: 'apps/server' }],
  ['web', { dir: 'apps/web', subpaths: 'apps/web' }],
  ['e2e', { dir: 'e2e', subpaths: 'e2e' }],
  ['bench', { dir: 'bench', subpaths: 'bench' }],
]);

const SOURCE_EXTENSION = /\.(?:d\.)?[cm]?[jt]sx?$/;
const REPOSITORY = /^apps\/server\/src\/modules\/([^/]+)\/repository$/;
const PAGE = /^apps\/web\/src\/features\/[^/]+\/pages\//;

/**
 * A repository-relative path with forward slashes and without a source extension, so specifiers compare equal.
 * @param {string} relativePath
 */
function normalise(relativePath) {
  return relativePath.split(path.sep).join('/').replace(SOURCE_EXTENSION, '');
}

/**
 * The file a specifier names, relative to the repository root, or null for a package outside the repository.
 * @param {string} specifier
 * @param {string} importer repository-relative path of the importing file
 * @returns {string | null}
 */
export function resolveSpecifier(specifier, importer) {
  if (specifier.startsWith('.')) return normalise(path.posix.join(path.posix.dirname(importer), specifier));
  if (specifier.startsWith('@/') && importer.startsWith('apps/web/')) return normalise(`apps/web/src/${specifier.slice(2)}`);
  const workspace = /^@carteirinha\/([^/]+)(?:\/(.*))?$/.exec(specifier);
  const location = workspace?.[1] === undefined ? undefined : WORKSPACES.get(workspace[1]);
  if (!workspace || !location) return null;
  const subpath = workspace[2];
  return normalise(subpath ? `${location.subpaths}/${subpath}` : location.dir);
}

/**
 * Tests, benchmarks and the demo seed build rows of every module directly (they import db/schema.ts for it), so
 * they may call any module's repository; the boundary guards the application's own code.
 * @param {string} file
 */
function buildsFixtures(file) {
  return /\.test\.tsx?$/.test(file) || file.startsWith('apps/server/test/') || file.startsWith('bench/') || file === 'apps/server/src/db/seed.ts';
}

/**
 * Which boundary importing `target` from `file` crosses, if any.
 * @param {string} file repository-relative, with its extension
 * @param {string} target repository-relative, normalised
 * @returns {{ messageId: 'webImportsServer' | 'sharedImportsApp' | 'foreignRepository' | 'pageOutsideApp', data: Record<string, string> } | null}
 */
export function crossedBoundary(file, target) {
  if (file.startsWith('apps/web/') && (target === 'apps/server' || target.startsWith('apps/server/'))) {
    return { messageId: 'webImportsServer', data: { target } };
  }
  if (file.startsWith('packages/shared/') && (target === 'apps' || target.startsWith('apps/'))) {
    return { messageId: 'sharedImportsApp', data: { target } };
  }
  const module = REPOSITORY.exec(target)?.[1];
  if (module !== undefined && !file.startsWith(`apps/server/src/modules/${module}/`) && !buildsFixtures(file)) {
    return { messageId: 'foreignRepository', data: { target, module } };
  }
  if (PAGE.test(target) && !file.startsWith('apps/web/src/app/')) {
    return { messageId: 'pageOutsideApp', data: { target } };
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports that cross the boundaries of the architecture (ADR 015, ADR 016)' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          allowed: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                file: { type: 'string' },
                imports: { type: 'string' },
                issue: { type: 'integer', minimum: 1 },
                why: { type: 'string', minLength: 1 },
              },
              required: ['file', 'imports', 'issue', 'why'],
              additionalProperties: false,
            },
          },
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      webImportsServer: 'The web never imports the server ({{target}}): share the type or schema through packages/shared.',
      sharedImportsApp: 'packages/shared is imported by the apps and imports neither ({{target}}).',
      foreignRepository:
        "{{target}} is the SQL of modules/{{module}}: only that module imports it. Call the module's service, or list this import with the issue that will remove it in lint/boundary-allow-list.json.",
      pageOutsideApp: 'Pages are opened by the router: only app/ imports {{target}} (ADR 015).',
      staleAllowance:
        'lint/boundary-allow-list.json allows this file to import {{imports}} (issue {{issue}}), and it no longer does: remove the entry.',
    },
  },
  create(context) {
    /** @type {Options} */
    const options = context.options[0];
    const file = path.relative(options.root, context.filename).split(path.sep).join('/');
    const allowances = (options.allowed ?? []).filter((entry) => entry.file === file);
    /** @type {Set<AllowedImport>} */
    const used = new Set();

    /** @param {import('estree').Node | null | undefined} source a string literal; anything else is skipped */
    function check(source) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveSpecifier(source.value, file);
      if (target === null) return;
      const crossing = crossedBoundary(file, target);
      if (!crossing) return;
      const allowance = allowances.find((entry) => normalise(entry.imports) === target);
      if (allowance) {
        used.add(allowance);
        return;
      }
      context.report({ node: source, ...crossing });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `import('…').Type` in a type position, and `import x = require('…')` (typescript-eslint's nodes).
      /** @param {{ source?: import('estree').Node, argument?: { literal?: import('estree').Node } }} node */
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      /** @param {{ expression?: import('estree').Node }} node */
      TSExternalModuleReference: (node) => check(node.expression),
      'Program:exit'(program) {
        for (const entry of allowances) {
          if (!used.has(entry)) context.report({ node: program, messageId: 'staleAllowance', data: { imports: entry.imports, issue: String(entry.issue) } });
        }
      },
    };
  },
};

export default { meta: { name: 'carteirinha' }, rules: { 'import-boundaries': importBoundaries } };
