import type { TestProject } from 'vitest/node';
import { writePgliteTemplate } from './template-database.ts';

/** Runs once before the PGlite test files: the migrated database every test database is opened from (template-database.ts). */
export default async function preparePgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const template = await writePgliteTemplate();
  project.provide('pgliteTemplateFile', template.file);
  return template.remove;
}
