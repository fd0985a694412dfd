import { HEAP_BESIDES_CACHES_MB, checkHeapBudget } from './heap-budget';
import { StartupFailure } from './startup-failure';

const MB = 1024 * 1024;

describe('checkHeapBudget', () => {
  it('accepts a budget that leaves the heap room besides the caches', () => {
    expect(() =>
      checkHeapBudget({ cacheBudgetBytes: 64 * MB }, (64 + HEAP_BESIDES_CACHES_MB) * MB),
    ).not.toThrow();
    expect(() => checkHeapBudget({ cacheBudgetBytes: 0 }, 192 * MB)).not.toThrow();
  });

  it('refuses in one line naming the variable and the heap limit', () => {
    const refuse = () => checkHeapBudget({ cacheBudgetBytes: 128 * MB }, 192 * MB);
    expect(refuse).toThrow(StartupFailure);
    expect(refuse).toThrow(
      `CACHE_BUDGET_MB=128 needs a V8 heap of at least ${128 + HEAP_BESIDES_CACHES_MB} MB (the budget + ${HEAP_BESIDES_CACHES_MB}); this process may use 192 MB: lower CACHE_BUDGET_MB or raise node's --max-old-space-size`,
    );
  });

  it('passes with the default budget in this process', () => {
    expect(() => checkHeapBudget({ cacheBudgetBytes: 64 * MB })).not.toThrow();
  });
});
