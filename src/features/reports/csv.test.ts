import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  const columns = [
    { label: 'Client', text: (row: { name: string; note: string }) => row.name },
    { label: 'Note, if any', text: (row: { name: string; note: string }) => row.note },
  ];

  it('writes a header and a line per row, quoting what a spreadsheet would split', () => {
    expect(toCsv(columns, [{ name: 'Ann "Nan" Lee', note: 'gate code 12, ring twice' }, { name: 'Bo', note: 'line\nbreak' }])).toBe(
      '\uFEFFClient,"Note, if any"\r\n"Ann ""Nan"" Lee","gate code 12, ring twice"\r\nBo,"line\nbreak"\r\n',
    );
  });

  it('never lets a cell run as a formula', () => {
    expect(toCsv(columns, [{ name: '=HYPERLINK("x")', note: '-2' }]).split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",'-2`);
  });
});
