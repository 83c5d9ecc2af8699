// A report's table: its columns sort on a click of their heading (again: the other way), and the same columns and
// rows, in the order shown, are what "Download CSV" saves (with the totals row last, when the table has one).
// A big table pages on the server (`paging`, ADR 0018): the server sorts and answers one page, the footer is the one
// Pagination of the lists, and "Download CSV" asks the server for every row of the table in the same order.
import { useMemo, useState, type ReactNode } from 'react';
import { openClientModal } from '../../app/modalStore';
import { Button } from '../../ui/Button';
import { Pagination } from '../../ui/Pagination';
import { downloadCsv, toCsv, type CsvColumn } from './csv';
import { FetchedCsvButton } from './FetchedCsvButton';
import { REPORT_PAGE_SIZES, type ReportPageSize } from './reportFilters';

export interface ReportColumn<Row> extends CsvColumn<Row> {
  id: string;
  /** What the column sorts by; null sorts last whichever the direction. */
  sortValue: (row: Row) => string | number | null;
  /** The cell in the table, when it shows more than its text (a link, a badge). */
  render?: (row: Row) => ReactNode;
}

/** The "Client" column every client report starts with: the name, sorting by it, opening the client's window. */
export function clientColumn<Row extends { client_id: number; client_name: string }>(): ReportColumn<Row> {
  return {
    id: 'client', label: 'Client', text: (row) => row.client_name, sortValue: (row) => row.client_name,
    render: (row) => (
      <button type="button" onClick={() => openClientModal(row.client_id)} className="text-left font-medium text-sky-700 hover:underline dark:text-sky-400">
        {row.client_name}
      </button>
    ),
  };
}

type Sort = { id: string; direction: 'ascending' | 'descending' } | null;

/** A table the server sorts and pages: its state (in the page's address) and every row for the CSV. */
export interface ServerPaging<Row> {
  /** The columns the server sorts by (the others' headings do not sort). */
  sortKeys: readonly string[];
  sort: string;
  direction: 'asc' | 'desc';
  /** A new order: the caller returns to page 1. */
  onSortChange: (sort: string, direction: 'asc' | 'desc') => void;
  page: number;
  perPage: ReportPageSize;
  total: number;
  onPageChange: (page: number) => void;
  /** A new page size: the caller returns to page 1. */
  onPerPageChange: (perPage: ReportPageSize) => void;
  /** Every row of the table, in its order: what "Download CSV" saves. */
  allRows: () => Promise<readonly Row[]>;
}

function sortRows<Row>(rows: readonly Row[], column: ReportColumn<Row> | undefined, direction: 'ascending' | 'descending'): readonly Row[] {
  if (!column) return rows;
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [column.sortValue(a), column.sortValue(b)];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { sensitivity: 'base', numeric: true }));
  });
}

export function ReportTable<Row>({ label, columns, rows, rowKey, fileName, empty, actions, totals, note, paging }: {
  label: string;
  columns: readonly ReportColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** The CSV's file name, e.g. 'clients-missing-address-2026-11-25.csv'. */
  fileName: string;
  /** What an empty table says. */
  empty: string;
  /** Beside "Download CSV": the report's other downloads (e.g. a detail CSV). */
  actions?: ReactNode;
  /** A summary row under the rows (not sorted with them), in the same columns. */
  totals?: Row;
  /** Beside the download button, e.g. what the rows leave out. */
  note?: string;
  /** The rows are one page of the server's: it sorts them, and the CSV asks it for every row. */
  paging?: ServerPaging<Row>;
}) {
  const [localSort, setLocalSort] = useState<Sort>(null);
  const sort: Sort = paging ? { id: paging.sort, direction: paging.direction === 'asc' ? 'ascending' : 'descending' } : localSort;
  const shown = useMemo(
    () => (!paging && localSort ? sortRows(rows, columns.find((column) => column.id === localSort.id), localSort.direction) : rows),
    [rows, columns, localSort, paging],
  );
  const sortBy = (id: string) => {
    const direction = sort?.id === id && sort.direction === 'ascending' ? 'descending' : 'ascending';
    if (paging) paging.onSortChange(id, direction === 'ascending' ? 'asc' : 'desc');
    else setLocalSort({ id, direction });
  };
  const sortable = (id: string) => !paging || paging.sortKeys.includes(id);
  const none = paging ? paging.total === 0 : rows.length === 0;

  return (
    <div>
      <div className="flex flex-wrap items-center justify-end gap-2 px-4 py-3 print:hidden">
        {note && <p data-testid="report-table-note" className="mr-auto text-sm text-slate-600 dark:text-slate-400">{note}</p>}
        {actions}
        {paging ? (
          <FetchedCsvButton
            label="Download CSV" fileName={fileName} columns={columns} disabled={none}
            rowsOf={async () => (totals ? [...await paging.allRows(), totals] : paging.allRows())}
          />
        ) : (
          <Button variant="secondary" size="sm" disabled={none} onClick={() => downloadCsv(fileName, toCsv(columns, totals ? [...shown, totals] : shown))}>
            Download CSV
          </Button>
        )}
      </div>
      <div className="relative overflow-x-auto">
        <table aria-label={label} className="w-full min-w-[48rem] divide-y divide-slate-200 text-sm print:min-w-0 dark:divide-slate-800">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
            <tr>
              {columns.map((column) => {
                const direction = sort?.id === column.id ? sort.direction : undefined;
                return (
                  <th key={column.id} scope="col" aria-sort={sortable(column.id) ? direction ?? 'none' : undefined} className="px-3 py-2 whitespace-nowrap">
                    {sortable(column.id) ? (
                      <button type="button" onClick={() => sortBy(column.id)} className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white">
                        {column.label}
                        <span aria-hidden="true" className={`print:hidden ${direction ? '' : 'opacity-30'}`}>
                          {direction === 'descending' ? '▼' : '▲'}
                        </span>
                      </button>
                    ) : column.label}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {shown.map((row) => (
              <tr key={rowKey(row)} className="align-top">
                {columns.map((column) => (
                  <td key={column.id} className="px-3 py-2 break-words">
                    {column.render ? column.render(row) : column.text(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {totals && !none && (
            <tfoot className="border-t-2 border-slate-300 font-semibold dark:border-slate-700">
              <tr>
                {columns.map((column) => <td key={column.id} className="px-3 py-2 break-words">{column.text(totals)}</td>)}
              </tr>
            </tfoot>
          )}
        </table>
        {rows.length === 0 && <p className="px-4 py-10 text-center text-sm text-slate-500 dark:text-slate-400">{empty}</p>}
      </div>
      {paging && (
        <div className="print:hidden">
          <Pagination
            page={paging.page} perPage={paging.perPage} pageSizes={REPORT_PAGE_SIZES} total={paging.total}
            onPageChange={paging.onPageChange} onPerPageChange={paging.onPerPageChange}
          />
        </div>
      )}
    </div>
  );
}
