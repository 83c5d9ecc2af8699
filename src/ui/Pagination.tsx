// The footer of a server-paginated table: rows per page, "first–last of total", previous and next.
import { useId } from 'react';

export function Pagination<Size extends number>({ page, perPage, pageSizes, total, onPageChange, onPerPageChange }: {
  page: number;
  perPage: Size;
  pageSizes: readonly Size[];
  total: number;
  onPageChange: (page: number) => void;
  /** The caller goes back to page 1. */
  onPerPageChange: (perPage: Size) => void;
}) {
  const perPageId = useId();
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const firstRow = total === 0 ? 0 : (page - 1) * perPage + 1;
  const lastRow = Math.min(page * perPage, total);
  return (
    <nav aria-label="Pagination" className="flex flex-col gap-3 border-t border-slate-200 p-4 text-sm sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
      <div className="flex items-center gap-2">
        <label htmlFor={perPageId}>Rows per page</label>
        <select
          id={perPageId}
          value={perPage}
          onChange={(event) => onPerPageChange(Number(event.target.value) as Size)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>{size}</option>
          ))}
        </select>
      </div>
      <p data-testid="pagination-summary" aria-live="polite">
        {firstRow}–{lastRow} of {total}
      </p>
      <div className="flex items-center gap-2">
        <button type="button" disabled={page <= 1} onClick={() => onPageChange(page - 1)} className="rounded-md border border-slate-300 px-3 py-1 disabled:opacity-40 dark:border-slate-700">
          Previous
        </button>
        <span>
          Page {page} of {pageCount}
        </span>
        <button type="button" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)} className="rounded-md border border-slate-300 px-3 py-1 disabled:opacity-40 dark:border-slate-700">
          Next
        </button>
      </div>
    </nav>
  );
}
