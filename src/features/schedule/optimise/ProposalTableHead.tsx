// The header row of the proposal's tables (figures, changes, rules): small grey column names; a column marked
// `wide` shows from the sm breakpoint only (a phone keeps the columns that matter). A column with `sort` is a button
// that sorts the table by it (again: the other way), its header saying how the table is sorted (aria-sort).
export interface ProposalColumn {
  label: string;
  wide?: boolean;
  nowrap?: boolean;
  /** The table sorts by this column: whether it does now and which way, and what a click asks. */
  sort?: { active: boolean; ascending: boolean; onSort: () => void };
}

export function ProposalTableHead({ columns }: { columns: readonly ProposalColumn[] }) {
  return (
    <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
      <tr>
        {columns.map((column, index) => (
          <th
            key={column.label}
            scope="col"
            aria-sort={column.sort?.active ? (column.sort.ascending ? 'ascending' : 'descending') : undefined}
            className={[
              'py-1 font-medium', index < columns.length - 1 ? 'pr-3' : '', column.wide ? 'hidden sm:table-cell' : '', column.nowrap ? 'whitespace-nowrap' : '',
            ].filter(Boolean).join(' ')}
          >
            {column.sort ? (
              <button
                type="button"
                onClick={column.sort.onSort}
                data-testid={`sort-${column.label.toLowerCase()}`}
                className={`inline-flex items-center gap-0.5 rounded font-medium hover:text-slate-800 dark:hover:text-slate-100 ${column.sort.active ? 'text-slate-800 dark:text-slate-100' : ''}`}
              >
                {column.label}
                <span aria-hidden="true" className="text-[10px]">{column.sort.active ? (column.sort.ascending ? '▲' : '▼') : '↕'}</span>
              </button>
            ) : column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
