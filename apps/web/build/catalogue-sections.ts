import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The pt-BR catalogue (packages/shared/src/messages.ts) is one object, `messages`, with a section per area (auth,
 * admin, cards…). Bundlers keep an object whole, so every page carried every area's words (19 KiB gzipped). This
 * build step makes each section a module-level export, and rewrites `messages.<section>` in the web's modules into
 * that export, so a page carries only the sections it reads. The source keeps its one catalogue and its one way of
 * reading it. A module that uses `messages` any other way (passes it whole, indexes it) keeps the whole object.
 */

type Node = { type: string; start: number; end: number; [key: string]: unknown };
type Edit = { start: number; end: number; text: string };

const SECTION_PREFIX = '__catalogue_';
/** A section of the catalogue as a module of its own (served by the plugin below). */
const SECTION_MODULE = 'virtual:catalogue-section/';
const RESOLVED_SECTION = '\0catalogue-section:';

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' && 'start' in value;
}

function isProgram(value: unknown): value is Node {
  return isNode(value) && value.type === 'Program';
}

function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    if (Array.isArray(value)) children.push(...value.filter(isNode));
    else if (isNode(value)) children.push(value);
  }
  return children;
}

function nameOf(node: unknown): string | null {
  return isNode(node) && node.type === 'Identifier' && typeof node.name === 'string' ? node.name : null;
}

function applyEdits(code: string, edits: Edit[]): string {
  let result = code;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The sections of the catalogue's `messages` object, each with its literal's source, or null if it is not one. */
export function sectionsOf(code: string, program: unknown): { init: Node; sections: { name: string; source: string }[] } | null {
  if (!isProgram(program)) return null;
  for (const statement of childrenOf(program)) {
    if (statement.type !== 'ExportNamedDeclaration' || !isNode(statement.declaration)) continue;
    const declarator = childrenOf(statement.declaration).find((node) => node.type === 'VariableDeclarator' && nameOf(node.id) === 'messages');
    if (!isNode(declarator?.init)) continue;
    // `{ … } as const` in the source; the bare object once TypeScript is compiled away.
    const init = declarator.init.type === 'TSAsExpression' && isNode(declarator.init.expression) ? declarator.init.expression : declarator.init;
    if (init.type !== 'ObjectExpression' || !Array.isArray(init.properties)) return null;
    const sections: { name: string; source: string }[] = [];
    for (const property of init.properties.filter(isNode)) {
      const name = nameOf(property.key);
      if (property.type !== 'Property' || property.computed === true || name === null || !isNode(property.value)) return null;
      sections.push({ name, source: code.slice(property.value.start, property.value.end) });
    }
    return { init: declarator.init, sections };
  }
  return null;
}

function sectionImport(name: string): string {
  return `import ${SECTION_PREFIX}${name} from '${SECTION_MODULE}${name}';`;
}

/** The catalogue, its `messages` put together from the section modules (the same objects a page imports alone). */
export function catalogueFromSections(code: string, program: unknown): string | null {
  const found = sectionsOf(code, program);
  if (found === null) return null;
  const whole = `{ ${found.sections.map(({ name }) => `${name}: ${SECTION_PREFIX}${name}`).join(', ')} }`;
  return `${found.sections.map(({ name }) => sectionImport(name)).join('\n')}\n${applyEdits(code, [{ start: found.init.start, end: found.init.end, text: whole }])}`;
}

/** Every place `name` is read, or null when it is also declared by the module itself (a shadowing local). */
function referencesOf(program: Node, name: string): { node: Node; parent: Node }[] | null {
  const references: { node: Node; parent: Node }[] = [];
  let shadowed = false;
  const visit = (node: Node, parent: Node) => {
    if (node.type === 'ImportDeclaration') return;
    if (node.type === 'MemberExpression' && node.computed !== true && isNode(node.object) && isNode(node.property)) {
      visit(node.object, node);
      return;
    }
    if (node.type === 'Property' && node.computed !== true && node.shorthand !== true && isNode(node.value)) {
      visit(node.value, node);
      return;
    }
    if (node.type === 'VariableDeclarator' && nameOf(node.id) === name) shadowed = true;
    if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') && Array.isArray(node.params)) {
      if (node.params.some((param) => nameOf(param) === name)) shadowed = true;
    }
    if (nameOf(node) === name) references.push({ node, parent });
    for (const child of childrenOf(node)) visit(child, node);
  };
  for (const child of childrenOf(program)) visit(child, program);
  return shadowed ? null : references;
}

/**
 * In a module that imports `messages` from the catalogue and only ever reads `messages.<section>`: imports the
 * sections it reads instead, and reads them directly. Null when the module is left as it is.
 */
export function importSectionsOnly(code: string, program: unknown, isCatalogue: (source: string) => boolean): string | null {
  if (!isProgram(program)) return null;
  const declaration = childrenOf(program).find(
    (node) => node.type === 'ImportDeclaration' && isNode(node.source) && typeof node.source.value === 'string' && isCatalogue(node.source.value),
  );
  if (!declaration || !Array.isArray(declaration.specifiers)) return null;
  const specifiers = declaration.specifiers.filter(isNode);
  const catalogueSpecifier = specifiers.find((node) => node.type === 'ImportSpecifier' && nameOf(node.imported) === 'messages');
  const local = nameOf(catalogueSpecifier?.local);
  if (!catalogueSpecifier || local === null) return null;
  const references = referencesOf(program, local);
  if (references === null || references.length === 0) return null;
  const sections = new Set<string>();
  const edits: Edit[] = [];
  for (const { node, parent } of references) {
    const section = parent.type === 'MemberExpression' && parent.object === node && parent.computed !== true ? nameOf(parent.property) : null;
    if (section === null) return null;
    sections.add(section);
    edits.push({ start: parent.start, end: parent.end, text: `${SECTION_PREFIX}${section}` });
  }
  const kept = specifiers.filter((node) => node !== catalogueSpecifier).map((node) => code.slice(node.start, node.end));
  const source = isNode(declaration.source) ? code.slice(declaration.source.start, declaration.source.end) : '';
  const imports = [...sections].map(sectionImport);
  if (kept.length > 0) imports.unshift(`import { ${kept.join(', ')} } from ${source};`);
  edits.push({ start: declaration.start, end: declaration.end, text: imports.join('\n') });
  return applyEdits(code, edits);
}

export function catalogueSections(options: { catalogue: string }): Plugin {
  const catalogue = path.resolve(options.catalogue);
  const catalogueWithoutExtension = catalogue.replace(/\.ts$/, '');
  let sources: Map<string, string> | null = null;
  return {
    name: 'carteirinha:catalogue-sections',
    apply: 'build',
    // After TypeScript and JSX are compiled away: the modules are plain JavaScript here.
    enforce: 'post',
    resolveId(source) {
      if (!source.startsWith(SECTION_MODULE)) return null;
      // Plain data: a section no module reads is dropped, with its import.
      return { id: `${RESOLVED_SECTION}${source.slice(SECTION_MODULE.length)}`, moduleSideEffects: false };
    },
    async load(id) {
      if (!id.startsWith(RESOLVED_SECTION)) return null;
      if (sources === null) {
        const code = await fs.readFile(catalogue, 'utf8');
        const found = sectionsOf(code, this.parse(code, { lang: 'ts' }));
        if (found === null) this.error(`${catalogue}: expected \`export const messages = { section: {…}, … } as const\``);
        sources = new Map(found.sections.map(({ name, source }) => [name, source]));
      }
      const name = id.slice(RESOLVED_SECTION.length);
      const source = sources.get(name);
      if (source === undefined) this.error(`the catalogue has no section "${name}"`);
      return `export default ${source};`;
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (file.includes('/node_modules/') || !/\.[cm]?[jt]sx?$/.test(file)) return null;
      if (file === catalogue) {
        const rebuilt = catalogueFromSections(code, this.parse(code));
        if (rebuilt === null) this.error(`${catalogue}: expected \`export const messages = { section: {…}, … }\``);
        return { code: rebuilt, map: null };
      }
      if (!code.includes('messages')) return null;
      const isCatalogue = (source: string) =>
        source === '@carteirinha/shared/messages' ||
        (source.startsWith('.') && [catalogue, catalogueWithoutExtension].includes(path.resolve(path.dirname(file), source)));
      const rewritten = importSectionsOnly(code, this.parse(code), isCatalogue);
      return rewritten === null ? null : { code: rewritten, map: null };
    },
  };
}
