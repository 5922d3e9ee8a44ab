import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseSync } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutScripts } from './landing-template.ts';
import { precompressFile } from './precompress.ts';
import { exportedNames, standInModule } from './zod-without-json-schema.ts';

describe("the landing's template", () => {
  it("is the SPA's page without its module scripts and preloads, stylesheet and head kept", () => {
    const index = `<!doctype html>
<html lang="pt-BR">
  <head>
    <title>Carteirinha</title>
    <script type="module" crossorigin src="/assets/index-a1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-b2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-c3.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
    expect(withoutScripts(index)).toBe(`<!doctype html>
<html lang="pt-BR">
  <head>
    <title>Carteirinha</title>
    <link rel="stylesheet" crossorigin href="/assets/index-c3.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`);
  });
});

describe('precompressed copies', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-precompress-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('are written beside a file worth compressing, and decompress to it', async () => {
    const file = path.join(dir, 'app.js');
    const code = `export const list = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `item ${i}`))};\n`;
    await fs.writeFile(file, code);
    await precompressFile(file);
    expect(zlib.brotliDecompressSync(await fs.readFile(`${file}.br`)).toString()).toBe(code);
    expect(zlib.gunzipSync(await fs.readFile(`${file}.gz`)).toString()).toBe(code);
  });

  it('are not written for a file too small to gain from it', async () => {
    const file = path.join(dir, 'tiny.js');
    await fs.writeFile(file, 'export const a = 1;\n');
    await precompressFile(file);
    await expect(fs.access(`${file}.br`)).rejects.toThrow();
    await expect(fs.access(`${file}.gz`)).rejects.toThrow();
  });
});

describe("zod's JSON Schema modules in the web build", () => {
  it('are replaced by a module with the same exports, whose functions throw when used', async () => {
    const names = exportedNames(parseSync('m.js', 'export function a() {}\nexport const b = 1, c = 2;\nfunction d() {}\nexport { d as e };\n').program);
    expect(names).toEqual(['a', 'b', 'c', 'e']);

    const url = `data:text/javascript,${encodeURIComponent(standInModule(names))}`;
    const standIn: Record<string, unknown> = await import(/* @vite-ignore */ url);
    expect(Object.keys(standIn).sort()).toEqual(['a', 'b', 'c', 'e']);
    const factory = standIn.a;
    if (typeof factory !== 'function') throw new Error('not a function');
    // zod calls the factories as it builds each schema: that must work; only asking for JSON Schema fails.
    const toJsonSchema: unknown = factory();
    if (typeof toJsonSchema !== 'function') throw new Error('not a function');
    expect(() => toJsonSchema()).toThrow('JSON Schema is not part of the web build');
  });

  it("have exports the real modules still have (zod's layout is what the stand-in relies on)", async () => {
    for (const module of ['zod/v4/core/json-schema-processors.js', 'zod/v4/core/to-json-schema.js']) {
      const zodRoot = path.dirname(createRequire(import.meta.url).resolve('zod'));
      const file = path.join(zodRoot, module.replace('zod/', ''));
      const names = exportedNames(parseSync('m.js', await fs.readFile(file, 'utf8')).program);
      expect(names.length, module).toBeGreaterThan(0);
    }
  });
});
