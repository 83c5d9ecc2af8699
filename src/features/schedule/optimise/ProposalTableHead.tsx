// The header row of the proposal's tables (figures, changes, rules): small grey column names; a column marked
// `wide` shows from the sm breakpoint only (a phone keeps the columns that matter).
export interface ProposalColumn { label: string; wide?: boolean; nowrap?: boolean }

export function ProposalTableHead({ columns }: { columns: readonly ProposalColumn[] }) {
  return (
    <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
      <tr>
        {columns.map((column, index) => (
          <th
            key={column.label}
            scope="col"
            className={[
              'py-1 font-medium', index < columns.length - 1 ? 'pr-3' : '', column.wide ? 'hidden sm:table-cell' : '', column.nowrap ? 'whitespace-nowrap' : '',
            ].filter(Boolean).join(' ')}
          >
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
