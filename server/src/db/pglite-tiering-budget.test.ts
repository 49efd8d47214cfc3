import { describe, expect, it } from 'vitest';
import { pgliteTieringBudget } from './create-database.ts';

describe('PGLITE_WASM_TIERING_BUDGET (issue #20 start-up)', () => {
  it('defaults to a budget far above V8 own, so Postgres start-up stays on baseline code', () => {
    expect(pgliteTieringBudget(undefined)).toBe(100_000_000);
  });

  it('takes another positive budget, or empty for V8 own default', () => {
    expect(pgliteTieringBudget('1800000')).toBe(1_800_000);
    expect(pgliteTieringBudget('')).toBeUndefined();
  });

  it('stops the start on anything else', () => {
    for (const bad of ['0', '-5', '1e6', 'lots', '12345678901', ' 5']) {
      expect(() => pgliteTieringBudget(bad), bad).toThrow(/PGLITE_WASM_TIERING_BUDGET must be a positive integer/);
    }
  });
});
