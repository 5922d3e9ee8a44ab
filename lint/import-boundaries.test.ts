import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, RuleTester, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import plugin, { resolveSpecifier } from './import-boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, '..');
const rule = plugin.rules['import-boundaries'];
const allowListPath = path.join(root, 'lint/boundary-allow-list.json');
type AllowedImport = { file: string; imports: string; issue: number; why: string };
const { allowed } = JSON.parse(readFileSync(allowListPath, 'utf8')) as { allowed: AllowedImport[] };

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

/** A file of the repository (it need not exist: the rule resolves by path alone). */
function at(file: string): string {
  return path.join(root, file);
}

describe('resolveSpecifier', () => {
  it('resolves the forms the code base uses to reach its own files, and nothing else', () => {
    expect(resolveSpecifier('../cards/repository.ts', 'apps/server/src/modules/visits/service.ts')).toBe('apps/server/src/modules/cards/repository');
    expect(resolveSpecifier('@/features/visits/pages/clinic-visits-page', 'apps/web/src/app/router.tsx')).toBe('apps/web/src/features/visits/pages/clinic-visits-page');
    expect(resolveSpecifier('@carteirinha/shared/contracts/visits', 'apps/web/src/x.ts')).toBe('packages/shared/src/contracts/visits');
    expect(resolveSpecifier('@carteirinha/server/src/app.ts', 'apps/web/src/x.ts')).toBe('apps/server/src/app');
    expect(resolveSpecifier('@carteirinha/server', 'packages/shared/src/x.ts')).toBe('apps/server');
    expect(resolveSpecifier('react', 'apps/web/src/x.ts')).toBeNull();
    expect(resolveSpecifier('@carteirinha/unknown/x', 'apps/web/src/x.ts')).toBeNull();
    // '@/' is the web's alias only.
    expect(resolveSpecifier('@/x', 'apps/server/src/app.ts')).toBeNull();
  });
});

ruleTester.run('import-boundaries', rule, {
  valid: [
    { name: 'a module imports its own SQL', filename: at('apps/server/src/modules/visits/service.ts'), code: "import { findClinicVisit } from './repository.ts';", options: [{ root }] },
    { name: 'a nested file of the module too', filename: at('apps/server/src/modules/payments/providers/local.ts'), code: "import { x } from '../repository.ts';", options: [{ root }] },
    { name: "another module's service is fine", filename: at('apps/server/src/modules/visits/service.ts'), code: "import { x } from '../cards/card-benefits.ts';", options: [{ root }] },
    { name: 'tests build rows of any module', filename: at('apps/server/src/modules/visits/visits.int.test.ts'), code: "import { x } from '../cards/repository.ts';", options: [{ root }] },
    { name: 'the test helpers too', filename: at('apps/server/test/helpers.ts'), code: "import { x } from '../src/modules/settings/repository.ts';", options: [{ root }] },
    { name: 'benchmarks too', filename: at('bench/csv-export.ts'), code: "import { x } from '../apps/server/src/modules/settings/repository.ts';", options: [{ root }] },
    { name: 'the web imports the shared contracts', filename: at('apps/web/src/lib/api.ts'), code: "import { x } from '@carteirinha/shared/contracts/visits';", options: [{ root }] },
    { name: 'shared imports itself', filename: at('packages/shared/src/contracts/visits.ts'), code: "import { x } from '../messages.ts';", options: [{ root }] },
    { name: 'the router opens pages', filename: at('apps/web/src/app/router.tsx'), code: "const page = import('@/features/visits/pages/clinic-visits-page');", options: [{ root }] },
    { name: 'a page composes components of another feature', filename: at('apps/web/src/features/cards/pages/clinic-validate-card-page.tsx'), code: "import { VisitActions } from '@/features/visits/components/visit-actions';", options: [{ root }] },
    {
      name: 'an allowed crossing, at the file the list names',
      filename: at('apps/server/src/modules/visits/service.ts'),
      code: "import { findService } from '../services/repository.ts';",
      options: [{ root, allowed: [{ file: 'apps/server/src/modules/visits/service.ts', imports: 'apps/server/src/modules/services/repository.ts', issue: 25, why: 'test' }] }],
    },
  ],
  invalid: [
    {
      name: 'the web imports the server by path',
      filename: at('apps/web/src/lib/api.ts'),
      code: "import type { AppConfig } from '../../../server/src/config.ts';",
      options: [{ root }],
      errors: [{ messageId: 'webImportsServer' }],
    },
    {
      name: 'the web imports the server by package name, in a type position',
      filename: at('apps/web/src/lib/api.ts'),
      code: "type Config = import('@carteirinha/server/src/config.ts').AppConfig;",
      options: [{ root }],
      errors: [{ messageId: 'webImportsServer' }],
    },
    {
      name: 'shared imports an app',
      filename: at('packages/shared/src/contracts/visits.ts'),
      code: "export { ApiError } from '../../../../apps/web/src/lib/api';",
      options: [{ root }],
      errors: [{ messageId: 'sharedImportsApp' }],
    },
    {
      name: "a module imports another module's SQL",
      filename: at('apps/server/src/modules/visits/service.ts'),
      code: "import { findClinicCard } from '../cards/repository.ts';",
      options: [{ root }],
      errors: [{ messageId: 'foreignRepository', data: { target: 'apps/server/src/modules/cards/repository', module: 'cards' } }],
    },
    {
      name: "code outside the modules imports a module's SQL",
      filename: at('apps/server/src/plugins/access-control.ts'),
      code: "export * from '../modules/auth/repository.ts';",
      options: [{ root }],
      errors: [{ messageId: 'foreignRepository' }],
    },
    {
      name: 'a component imports a page',
      filename: at('apps/web/src/features/visits/components/visits-list.tsx'),
      code: "import { PatientHistoryPage } from '../pages/patient-history-page';",
      options: [{ root }],
      errors: [{ messageId: 'pageOutsideApp' }],
    },
    {
      name: 'an allowance covers its one file: the same import elsewhere is an error',
      filename: at('apps/server/src/modules/dashboard/service.ts'),
      code: "import { findService } from '../services/repository.ts';",
      options: [{ root, allowed: [{ file: 'apps/server/src/modules/visits/service.ts', imports: 'apps/server/src/modules/services/repository.ts', issue: 25, why: 'test' }] }],
      errors: [{ messageId: 'foreignRepository' }],
    },
    {
      name: 'an allowance covers its one import: a new crossing in the same file is an error',
      filename: at('apps/server/src/modules/visits/service.ts'),
      code: "import { findService } from '../services/repository.ts';\nimport { planSummary } from '../plans/repository.ts';",
      options: [{ root, allowed: [{ file: 'apps/server/src/modules/visits/service.ts', imports: 'apps/server/src/modules/services/repository.ts', issue: 25, why: 'test' }] }],
      errors: [{ messageId: 'foreignRepository', line: 2 }],
    },
    {
      name: 'an allowance whose import is gone must be removed',
      filename: at('apps/server/src/modules/visits/service.ts'),
      code: "import { findClinicVisit } from './repository.ts';",
      options: [{ root, allowed: [{ file: 'apps/server/src/modules/visits/service.ts', imports: 'apps/server/src/modules/services/repository.ts', issue: 25, why: 'test' }] }],
      errors: [{ messageId: 'staleAllowance', data: { imports: 'apps/server/src/modules/services/repository.ts', issue: '25' } }],
    },
  ],
});

describe('the checked-in allow-list', () => {
  it('names files that exist, each crossing once, with an issue and a reason', () => {
    // Empty once every crossing is gone (issue 25 removed the last ones); each entry left must be real.
    for (const entry of allowed) {
      expect(existsSync(path.join(root, entry.file)), entry.file).toBe(true);
      expect(existsSync(path.join(root, entry.imports)), entry.imports).toBe(true);
      expect(Number.isInteger(entry.issue) && entry.issue > 0).toBe(true);
      expect(entry.why.length).toBeGreaterThan(20);
    }
    const keys = allowed.map((entry) => `${entry.file} -> ${entry.imports}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is the list the project lint runs with, at error level', async () => {
    const eslint = new ESLint({ cwd: root });
    const config = (await eslint.calculateConfigForFile(at('apps/server/src/modules/visits/service.ts'))) as Linter.Config;
    expect(config.rules?.['carteirinha/import-boundaries']).toEqual([2, { root, allowed }]);
  });
});

describe('the real allow-list, through the rule', () => {
  // The list only shrinks, and may be empty: then a module's own service stands in for a listed file.
  const [listed] = allowed;
  const file = listed?.file ?? 'apps/server/src/modules/dashboard/service.ts';
  // Every import the list allows that file (an entry it no longer uses is an error of its own).
  const listedImports = allowed
    .filter((entry) => entry.file === file)
    .map((entry, index) => `import { x${index} } from './${path.relative(path.dirname(at(file)), at(entry.imports))}';`)
    .join('\n');
  const lines = listedImports === '' ? 0 : listedImports.split('\n').length;

  ruleTester.run('import-boundaries with lint/boundary-allow-list.json', rule, {
    valid: [{ name: `${file} keeps its listed imports`, filename: at(file), code: listedImports === '' ? 'export {};' : listedImports, options: [{ root, allowed }] }],
    invalid: [
      {
        name: 'a new crossing not on the list fails the lint',
        filename: at(file),
        code: `${listedImports === '' ? '' : `${listedImports}\n`}import { y } from '../../modules/visits/repository.ts';`,
        options: [{ root, allowed }],
        errors: [{ messageId: 'foreignRepository', line: lines + 1 }],
      },
    ],
  });
});
