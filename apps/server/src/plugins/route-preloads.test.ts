import { describe, expect, it } from 'vitest';
import { withPreloads } from './route-preloads.ts';

describe('withPreloads', () => {
  it("puts the module preloads at the end of the page's head, as Vite writes its own", () => {
    const html = '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';
    expect(withPreloads(html, ['assets/a.js', 'assets/b.js'])).toBe(
      '<!doctype html><html><head><script type="module" src="/assets/index.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/a.js"><link rel="modulepreload" crossorigin href="/assets/b.js"></head><body></body></html>',
    );
  });
});
