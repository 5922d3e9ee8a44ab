import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** The lint's own rules, tested before `npm run lint` trusts them (ADR 016). */
export default defineConfig({
  root: path.resolve(import.meta.dirname, '..'),
  test: { name: 'lint', include: ['lint/**/*.test.ts'] },
});
