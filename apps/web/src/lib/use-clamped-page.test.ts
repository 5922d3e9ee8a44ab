import { describe, expect, it } from 'vitest';
import { lastPageOf, pageToClampTo } from './use-clamped-page';

const answer = (page: number, total: number, rows: number) => ({ page, pageSize: 20, total, items: Array.from({ length: rows }) });

describe('lastPageOf', () => {
  it('is the page holding the last row, and 1 for an empty list', () => {
    expect(lastPageOf({ total: 0, pageSize: 20 })).toBe(1);
    expect(lastPageOf({ total: 20, pageSize: 20 })).toBe(1);
    expect(lastPageOf({ total: 21, pageSize: 20 })).toBe(2);
    expect(lastPageOf({ total: 40, pageSize: 20 })).toBe(2);
  });
});

describe('pageToClampTo', () => {
  it('goes back to the last page when the page asked for came back empty past the end', () => {
    // The only row of page 2 was deleted: 20 rows are left, all on page 1.
    expect(pageToClampTo(2, answer(2, 20, 0))).toBe(1);
    // Several pages vanished at once.
    expect(pageToClampTo(5, answer(5, 41, 0))).toBe(3);
    // Everything is gone: page 1 says so.
    expect(pageToClampTo(3, answer(3, 0, 0))).toBe(1);
  });

  it('stays while loading, on a page with rows, on page 1, and on a placeholder answer of another page', () => {
    expect(pageToClampTo(2, undefined)).toBeNull();
    expect(pageToClampTo(2, answer(2, 21, 1))).toBeNull();
    expect(pageToClampTo(1, answer(1, 0, 0))).toBeNull();
    expect(pageToClampTo(3, answer(2, 20, 0))).toBeNull();
  });

  it('never moves forwards when the rows and the count disagree', () => {
    expect(pageToClampTo(2, answer(2, 25, 0))).toBeNull();
  });
});
