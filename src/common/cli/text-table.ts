/** A column of a terminal table: its header, and whether values line up on the right (numbers). */
export interface TableColumn<Row> {
  header: string;
  value: (row: Row) => string | number;
  alignRight?: boolean;
}

/**
 * A plain aligned table for a terminal: a header line and one line per row, columns separated by
 * two spaces, no quotes, no index column. Widths count code points; the last column is not padded.
 */
export function formatTable<Row>(columns: TableColumn<Row>[], rows: Row[]): string {
  const cells = [
    columns.map((column) => column.header),
    ...rows.map((row) => columns.map((c) => String(c.value(row)))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => [...line[i]].length)));
  return cells
    .map((line) =>
      line
        .map((cell, i) => {
          const padding = ' '.repeat(widths[i] - [...cell].length);
          if (columns[i].alignRight) return padding + cell;
          return i === line.length - 1 ? cell : cell + padding;
        })
        .join('  '),
    )
    .join('\n');
}
