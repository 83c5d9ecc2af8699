// A report's table as CSV: the same columns and rows the table shows, as a spreadsheet reads them (RFC 4180: fields
// with a comma, quote or line break quoted, quotes doubled; CRLF between rows; a BOM so Excel reads UTF-8). A cell
// that starts like a formula (= + - @) is prefixed with ' so a spreadsheet never runs it; a plain number (a southern
// latitude, a negative difference) is a number, not a formula, and is written as it is.
export interface CsvColumn<Row> {
  label: string;
  /** The cell as text, the way the table shows it. */
  text: (row: Row) => string;
  /** The cell in the CSV when a spreadsheet or an auditor needs it otherwise than shown (an instant with its offset). */
  csv?: (row: Row) => string;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

const quote = (cell: string) => {
  const safe = /^[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => quote(column.label)), ...rows.map((row) => columns.map((column) => quote((column.csv ?? column.text)(row))))];
  return `\uFEFF${lines.map((cells) => cells.join(',')).join('\r\n')}\r\n`;
}

/** Saves the text as a file through the browser's download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
