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
    expect(toCsv(columns, [{ name: '=HYPERLINK("x")', note: '-2+3' }]).split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",'-2+3`);
    expect(toCsv(columns, [{ name: '+61 7 3000', note: '-1e3' }]).split('\r\n')[1]).toBe(`'+61 7 3000,'-1e3`);
  });

  it('writes a plain negative number as it is (a southern latitude, a shorter visit)', () => {
    expect(toCsv(columns, [{ name: '-27.466500', note: '-30' }]).split('\r\n')[1]).toBe('-27.466500,-30');
  });
});
