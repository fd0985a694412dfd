import { isQueryCanceled } from './statement-timeout';

describe('isQueryCanceled', () => {
  const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
  });

  it('recognizes a cancelled statement (57014), thrown as it is or as a cause', () => {
    expect(isQueryCanceled(cancelled)).toBe(true);
    expect(isQueryCanceled(new Error('query failed', { cause: cancelled }))).toBe(true);
  });

  it.each([
    new Error('boom'),
    Object.assign(new Error('unique'), { code: '23505' }),
    'text',
    null,
    undefined,
  ])('is false for %p', (error) => {
    expect(isQueryCanceled(error)).toBe(false);
  });
});
