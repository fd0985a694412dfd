import { formatTable } from './text-table';

describe('formatTable', () => {
  const columns = [
    { header: 'NAME', value: (row: { name: string; rpm: number }) => row.name },
    { header: 'RPM', value: (row: { name: string; rpm: number }) => row.rpm, alignRight: true },
    { header: 'NOTE', value: () => 'x' },
  ];

  it('aligns every column, numbers on the right, with no index column and no quotes', () => {
    expect(
      formatTable(columns, [
        { name: 'partner', rpm: 5 },
        { name: 'mobile app', rpm: 1200 },
      ]).split('\n'),
    ).toEqual([
      'NAME         RPM  NOTE', //
      'partner        5  x',
      'mobile app  1200  x',
    ]);
  });

  it('measures width in code points, so accented names stay aligned', () => {
    const lines = formatTable(columns, [{ name: 'Ünïcödé', rpm: 1 }]).split('\n');
    expect(lines).toEqual(['NAME     RPM  NOTE', 'Ünïcödé    1  x']);
  });

  it('prints the header alone for no rows', () => {
    expect(formatTable(columns, [])).toBe('NAME  RPM  NOTE');
  });
});
