import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * zod's classic API gives every schema a `toJSONSchema()` method, so the JSON Schema generator (its processors for
 * every schema type) comes along wherever zod does: 6 KiB gzipped on every page. The browser never asks for JSON
 * Schema (the server publishes OpenAPI from the same contracts), so the web build swaps those two modules of zod for
 * stand-ins with the same exports. Parsing is untouched. Should a page ever call `toJSONSchema()`, it throws, loudly.
 */
const STAND_IN = '\0zod-without-json-schema:';
const JSON_SCHEMA_MODULES = ['/zod/v4/core/json-schema-processors.js', '/zod/v4/core/to-json-schema.js'];

type Node = { type: string; [key: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

function identifierName(node: unknown): string | null {
  return isNode(node) && node.type === 'Identifier' && typeof node.name === 'string' ? node.name : null;
}

/** The names a module exports (`export function f`, `export const a = …, b`, `export { x as y }`). */
export function exportedNames(program: unknown): string[] {
  if (!isNode(program) || !Array.isArray(program.body)) return [];
  const names: string[] = [];
  for (const statement of program.body.filter(isNode)) {
    if (statement.type !== 'ExportNamedDeclaration') continue;
    const declaration = statement.declaration;
    if (isNode(declaration)) {
      const declared = identifierName(declaration.id);
      if (declared) names.push(declared);
      if (Array.isArray(declaration.declarations)) {
        for (const declarator of declaration.declarations.filter(isNode)) {
          const name = identifierName(declarator.id);
          if (name) names.push(name);
        }
      }
    }
    if (Array.isArray(statement.specifiers)) {
      for (const specifier of statement.specifiers.filter(isNode)) {
        const name = identifierName(specifier.exported);
        if (name) names.push(name);
      }
    }
  }
  return names;
}

/**
 * A module with `names` as exports, each a factory of a function that throws: zod calls the factories when it builds
 * a schema's `~standard` props, and only the produced functions when JSON Schema is asked for.
 */
export function standInModule(names: readonly string[]): string {
  const lines = [
    "const unavailable = () => { throw new Error('JSON Schema is not part of the web build (build/zod-without-json-schema.ts)'); };",
    'const factory = () => unavailable;',
    ...names.map((name) => `export { factory as ${name} };`),
  ];
  return `${lines.join('\n')}\n`;
}

export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'carteirinha:zod-without-json-schema',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.includes('/node_modules/zod/') || !source.startsWith('.')) return null;
      const resolved = path.resolve(path.dirname(importer), source);
      if (!JSON_SCHEMA_MODULES.some((module) => resolved.endsWith(module))) return null;
      return { id: `${STAND_IN}${resolved}`, moduleSideEffects: false };
    },
    async load(id) {
      if (!id.startsWith(STAND_IN)) return null;
      const original = id.slice(STAND_IN.length);
      const names = exportedNames(this.parse(await fs.readFile(original, 'utf8')));
      if (names.length === 0) this.error(`${original}: no exports found; has zod changed its modules?`);
      return standInModule(names);
    },
  };
}
