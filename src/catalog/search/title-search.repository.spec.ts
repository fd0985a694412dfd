import { FILTER_LIST_RATIO, coveringLists } from './title-search.repository';

describe('coveringLists', () => {
  const totals = new Map<string, number>([
    ['the', 231_238],
    ['of', 104_318],
    ['king', 18_764],
    ['of the', 48_367],
    ['the of', 48_367],
    ['night', 30_877],
    ['night of', 4_490],
    ['night the', 6_457],
    ['school', 2_979],
  ]);

  it('covers each remaining token with its smallest list, a pair covering two at once', () => {
    expect(coveringLists(['the', 'king', 'of'], 'king', totals)).toEqual(['of the']);
    expect(coveringLists(['night', 'of', 'the'], 'night of', totals)).toEqual(['night the']);
  });

  it(`leaves out lists more than ${FILTER_LIST_RATIO} times the candidates' length`, () => {
    // 2,979 × 40 = 119,160: "of" (104,318) is worth intersecting, "the" (231,238) is not.
    expect(coveringLists(['school', 'of'], 'school', totals)).toEqual(['of']);
    expect(coveringLists(['the', 'school'], 'school', totals)).toEqual([]);
  });

  it('needs nothing when the candidate list covers every token', () => {
    expect(coveringLists(['night', 'of'], 'night of', totals)).toEqual([]);
    expect(coveringLists(['king'], 'king', totals)).toEqual([]);
  });
});
