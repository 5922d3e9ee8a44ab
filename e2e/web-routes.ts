import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The pages of the web app, read from its router (apps/web/src/app/router.tsx) as written: every route that renders
 * something at an address of its own, as the full path React Router matches ('/admin/relatorios/imprimir/:kind',
 * '*'). The accessibility spec checks that each one has its states in its table, so a new page cannot be forgotten.
 *
 * The router is read, not run: it imports the pages and creates a browser router. Route objects may be written inline,
 * as constants of the same file or imported from another file of the app, and spread into arrays; any other shape
 * (a route built by a function call, say) is refused with its place in the source, so a change of style is noticed.
 */

export const ROUTER_FILE = path.resolve(import.meta.dirname, '../apps/web/src/app/router.tsx');

type Source = { file: string; node: ts.SourceFile };

const sources = new Map<string, Source>();

function sourceOf(file: string): Source {
  let source = sources.get(file);
  if (!source) {
    source = { file, node: ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX) };
    sources.set(file, source);
  }
  return source;
}

function refuse(source: Source, node: ts.Node, what: string): never {
  const { line } = source.node.getLineAndCharacterOfPosition(node.getStart());
  throw new Error(`${path.relative(process.cwd(), source.file)}:${line + 1}: ${what} (e2e/web-routes.ts reads routes written as object literals)`);
}

/** A module of the app named by a relative import, with the extensions the web's bundler resolves. */
function resolveModule(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.tsx'), path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The initializer of a top-level `const name = …` of this file, or of the file it is imported from. */
function definitionOf(source: Source, name: string): { source: Source; node: ts.Expression } | null {
  for (const statement of source.node.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.name.text === name && declaration.initializer) return { source, node: declaration.initializer };
      }
    }
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const imported = bindings.elements.find((element) => element.name.text === name);
      if (!imported) continue;
      const file = resolveModule(source.file, statement.moduleSpecifier.text);
      if (!file) return null;
      return definitionOf(sourceOf(file), (imported.propertyName ?? imported.name).text);
    }
  }
  return null;
}

function unwrap(node: ts.Expression): ts.Expression {
  if (ts.isSatisfiesExpression(node) || ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) return unwrap(node.expression);
  return node;
}

function resolved(source: Source, node: ts.Expression): { source: Source; node: ts.Expression } {
  const bare = unwrap(node);
  if (!ts.isIdentifier(bare)) return { source, node: bare };
  const definition = definitionOf(source, bare.text);
  if (!definition) refuse(source, bare, `cannot find the routes named ${bare.text}`);
  return resolved(definition.source, definition.node);
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const member of object.properties) {
    if (ts.isPropertyAssignment(member) && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) && member.name.text === name) return member.initializer;
    if (ts.isShorthandPropertyAssignment(member) && member.name.text === name) return member.name;
  }
  return undefined;
}

function joinPath(parent: string, segment: string): string {
  if (segment.startsWith('/') || segment === '*') return segment;
  return `${parent.replace(/\/$/, '')}/${segment}`;
}

function collectArray(source: Source, node: ts.Expression, parent: string, into: Set<string>): void {
  const array = resolved(source, node);
  if (!ts.isArrayLiteralExpression(array.node)) refuse(array.source, array.node, 'routes that are not an array literal');
  for (const element of array.node.elements) {
    if (ts.isSpreadElement(element)) collectArray(array.source, element.expression, parent, into);
    else collectRoute(array.source, element, parent, into);
  }
}

function collectRoute(source: Source, node: ts.Expression, parent: string, into: Set<string>): void {
  const route = resolved(source, node);
  if (!ts.isObjectLiteralExpression(route.node)) refuse(route.source, route.node, 'a route that is not an object literal');
  const pathNode = property(route.node, 'path');
  if (pathNode && !ts.isStringLiteralLike(pathNode)) refuse(route.source, pathNode, 'a route path that is not a string literal');
  const fullPath = pathNode ? joinPath(parent, pathNode.text) : parent;
  const children = property(route.node, 'children');
  if (children) {
    collectArray(route.source, children, fullPath, into);
    return;
  }
  // A leaf renders a page: at its own path, or at its parent's (an index route).
  if (pathNode || property(route.node, 'index')) into.add(fullPath || '/');
}

/** Every page path of the web app's router, sorted. */
export function webRoutePaths(): string[] {
  const source = sourceOf(ROUTER_FILE);
  const paths = new Set<string>();
  const routes = definitionOf(source, 'routes');
  if (!routes) throw new Error(`${ROUTER_FILE} has no \`routes\` constant`);
  collectArray(routes.source, routes.node, '', paths);
  return [...paths].sort();
}
