import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';
import carteirinha from './lint/import-boundaries.js';

/** Today's crossings of the import boundaries, each with the issue that removes it (ADR 016). */
const { allowed: allowedCrossings } = JSON.parse(readFileSync(new URL('./lint/boundary-allow-list.json', import.meta.url), 'utf8'));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/data/**', 'apps/server/src/db/migrations/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Type-aware rules for the bugs the compiler lets through: a promise nobody awaits (its failure is lost, and a
    // transaction or a test moves on before it ends), a promise where a boolean or a void callback was expected, and a
    // switch on a union that forgets a member. Each file is checked with the types of its own tsconfig.json.
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // What the architecture says, as imports: the web never imports the server, packages/shared imports neither app,
    // a module's repository.ts is imported only inside its module, a page only by app/ (ADR 015, ADR 016).
    files: ['**/*.{ts,tsx,js}'],
    plugins: { carteirinha },
    rules: { 'carteirinha/import-boundaries': ['error', { root: import.meta.dirname, allowed: allowedCrossings }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // CLIs print to the terminal on purpose.
    files: ['apps/server/src/db/seed-cli.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.spec.ts', 'apps/server/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
