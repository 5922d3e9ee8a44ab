import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { catalogueFromSections, importSectionsOnly, sectionsOf } from './catalogue-sections.ts';

function program(code: string, lang: 'js' | 'ts' = 'js') {
  return parseSync(`module.${lang}`, code).program;
}

const isCatalogue = (source: string) => source === '@carteirinha/shared/messages';

describe('the catalogue, split into sections', () => {
  const catalogue = `export const messages = {
  auth: { signIn: 'Entrar', welcome: 'Olá, {name}!' },
  landing: { hero: 'Sua clínica com cartão próprio' },
} as const;

export function formatMessage(template: string) { return template; }
`;

  it('finds each section with its source, in the TypeScript file', () => {
    const found = sectionsOf(catalogue, program(catalogue, 'ts'));
    expect(found?.sections).toEqual([
      { name: 'auth', source: "{ signIn: 'Entrar', welcome: 'Olá, {name}!' }" },
      { name: 'landing', source: "{ hero: 'Sua clínica com cartão próprio' }" },
    ]);
  });

  it('rebuilds `messages` from the section modules, so the whole object and the sections are the same objects', () => {
    const compiled = catalogue.replace(' as const', '').replace('(template: string)', '(template)');
    expect(catalogueFromSections(compiled, program(compiled))).toBe(`import __catalogue_auth from 'virtual:catalogue-section/auth';
import __catalogue_landing from 'virtual:catalogue-section/landing';
export const messages = { auth: __catalogue_auth, landing: __catalogue_landing };

export function formatMessage(template) { return template; }
`);
  });
});

describe("a module's reads of the catalogue", () => {
  it('import only the sections the module reads', () => {
    const code = `import { formatMessage, messages } from '@carteirinha/shared/messages';
const m = messages.landing;
export const title = () => formatMessage(messages.auth.welcome, { name: 'Ana' }) + m.hero + messages.auth.signIn;
`;
    expect(importSectionsOnly(code, program(code), isCatalogue)).toBe(`import { formatMessage } from '@carteirinha/shared/messages';
import __catalogue_landing from 'virtual:catalogue-section/landing';
import __catalogue_auth from 'virtual:catalogue-section/auth';
const m = __catalogue_landing;
export const title = () => formatMessage(__catalogue_auth.welcome, { name: 'Ana' }) + m.hero + __catalogue_auth.signIn;
`);
  });

  it('leave a module that uses the catalogue whole, indexes it or shadows its name as it is', () => {
    const whole = `import { messages } from '@carteirinha/shared/messages';\nexport const all = messages;\n`;
    const indexed = `import { messages } from '@carteirinha/shared/messages';\nexport const pick = (key) => messages[key];\n`;
    const shadowed = `import { messages } from '@carteirinha/shared/messages';\nexport const f = (messages) => messages.auth;\nexport const g = messages.landing;\n`;
    for (const code of [whole, indexed, shadowed]) expect(importSectionsOnly(code, program(code), isCatalogue)).toBeNull();
  });

  it('leave a module that does not import the catalogue as it is, even with a `messages` of its own', () => {
    const code = `const messages = { auth: 1 };\nexport const x = messages.auth;\n`;
    expect(importSectionsOnly(code, program(code), isCatalogue)).toBeNull();
  });

  it('keep an object key or a member named `messages` out of it', () => {
    const code = `import { messages } from '@carteirinha/shared/messages';\nexport const x = { messages: 1, y: response.messages, z: messages.auth.signIn };\n`;
    expect(importSectionsOnly(code, program(code), isCatalogue)).toBe(
      `import __catalogue_auth from 'virtual:catalogue-section/auth';\nexport const x = { messages: 1, y: response.messages, z: __catalogue_auth.signIn };\n`,
    );
  });
});
