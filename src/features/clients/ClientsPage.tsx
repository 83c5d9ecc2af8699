// /clients: a server-paginated, sortable, searchable table; a row opens the client details modal.
import { useId } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { messageOfError } from '../../api/errors';
import { urlParam, useUrlState } from '../../lib/urlState';
import type { RoutePageProps } from '../../router/routeTypes';
import { CollapsibleFilters } from '../../ui/CollapsibleFilters';
import { Card, PageHeader } from '../../ui/PageHeader';
import { LoadingText, Spinner } from '../../ui/PageSpinner';
import { ErrorNote } from '../../ui/forms';
import { Pagination } from '../../ui/Pagination';
import { openClientModal } from '../../app/modalStore';
import type { ClientListItem, ClientListQuery } from '../../entities/clients/api';
import { clientQueries } from '../../entities/clients/queries';
import { TagChip } from './TagsEditor';
import { useAllTags } from '../../entities/clients/useAllTags';
import { useDebouncedValue } from '../../ui/useDebouncedValue';

const PAGE_SIZES = [5, 10, 20, 50] as const;
type SortKey = Exclude<NonNullable<ClientListQuery['sort']>, 'match'>;
const SEARCH_DEBOUNCE_MS = 300;

interface Column {
  key: SortKey | 'tags';
  label: string;
  sortable: boolean;
  render: (client: ClientListItem) => React.ReactNode;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

const COLUMNS: Column[] = [
  { key: 'name', label: 'Name', sortable: true, render: (client) => <span className="font-medium text-slate-900 dark:text-white">{client.full_name}</span> },
  { key: 'suburb', label: 'Suburb', sortable: true, render: (client) => client.suburb ?? '—' },
  { key: 'phone', label: 'Phone', sortable: true, render: (client) => client.phone ?? '—' },
  // An address is never broken mid-word: a long one is cut short, whole in its title.
  {
    key: 'email',
    label: 'Email',
    sortable: true,
    render: (client) => (client.email ? <span className="block max-w-56 truncate" title={client.email}>{client.email}</span> : '—'),
  },
  {
    key: 'tags',
    label: 'Tags',
    sortable: false,
    render: (client) => (
      <span className="flex flex-wrap gap-1">
        {client.tags.map((tag) => (
          <TagChip key={tag.id} tag={tag} />
        ))}
      </span>
    ),
  },
  { key: 'has_custom_availability', label: 'Custom availability', sortable: true, render: (client) => yesNo(client.has_custom_availability) },
  { key: 'has_address', label: 'Address', sortable: true, render: (client) => yesNo(client.has_address) },
];

const SORT_KEYS = ['name', 'suburb', 'phone', 'email', 'has_custom_availability', 'has_address'] as const satisfies readonly SortKey[];

/** What the address keeps of this page. */
const PAGE_STATE = {
  q: urlParam.text(),
  tag: urlParam.integer(null),
  missing_address: urlParam.flag(),
  sort: urlParam.oneOf(SORT_KEYS, 'name'),
  direction: urlParam.oneOf(['asc', 'desc'], 'asc'),
  page: urlParam.integer(1),
  per_page: urlParam.oneOf(PAGE_SIZES, 10),
};

export default function ClientsPage({ route }: RoutePageProps) {
  const { api } = useServices();
  const allTags = useAllTags();
  const [state, setState] = useUrlState(PAGE_STATE);
  const { q: search, tag: tagId, missing_address: missingAddress, page, per_page: perPage } = state;
  const sort = { key: state.sort, direction: state.direction };
  const debouncedSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const ids = { search: useId(), tag: useId(), missing: useId() };

  const query: ClientListQuery = {
    page,
    per_page: perPage,
    sort: sort.key,
    direction: sort.direction,
    ...(debouncedSearch ? { q: debouncedSearch } : {}),
    ...(tagId !== null ? { tag_id: tagId } : {}),
    ...(missingAddress ? { missing_address: true } : {}),
  };
  const clients = useQuery({
    ...clientQueries.list(api, query),
    placeholderData: keepPreviousData,
  });

  /** A new search, filter, order or page size starts again at page 1. */
  const changeFilter = (patch: Partial<typeof state>, options?: { replace?: boolean }) => setState({ ...patch, page: 1 }, options);
  const toggleSort = (key: SortKey) => changeFilter({ sort: key, direction: sort.key === key && sort.direction === 'asc' ? 'desc' : 'asc' });

  const inputClass = 'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900';

  return (
    <>
      <PageHeader title={route.title}>Find a client to see their details, availability and tags.</PageHeader>
      <Card className="p-0">
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <div className="min-w-0 flex-1 md:max-w-md md:min-w-64">
            <label htmlFor={ids.search} className="block text-xs font-medium text-slate-600 dark:text-slate-300">Search</label>
            <input
              id={ids.search}
              type="search"
              placeholder="Name, phone, email or suburb"
              value={search}
              // Typing rewrites the address in place: Back leaves the search instead of replaying it key by key.
              onChange={(event) => changeFilter({ q: event.target.value }, { replace: true })}
              className={`mt-1 w-full ${inputClass}`}
            />
          </div>
          {/* On a phone the search stays in view and the filters wait behind a button, so the first clients show. */}
          <CollapsibleFilters activeCount={(tagId !== null ? 1 : 0) + (missingAddress ? 1 : 0)} panelClassName="md:flex-row md:items-end">
            <div>
              <label htmlFor={ids.tag} className="block text-xs font-medium text-slate-600 dark:text-slate-300">Tag</label>
              <select
                id={ids.tag}
                value={tagId ?? ''}
                onChange={(event) => changeFilter({ tag: event.target.value === '' ? null : Number(event.target.value) })}
                className={`mt-1 ${inputClass}`}
              >
                <option value="">All tags</option>
                {allTags.data?.map((tag) => (
                  <option key={tag.id} value={tag.id}>{tag.name}</option>
                ))}
              </select>
            </div>
            <label htmlFor={ids.missing} className="flex items-center gap-2 text-sm md:pb-2">
              <input id={ids.missing} type="checkbox" checked={missingAddress} onChange={(event) => changeFilter({ missing_address: event.target.checked })} className="size-4 rounded border-slate-300" />
              Missing address
            </label>
          </CollapsibleFilters>
          {clients.isFetching && <Spinner className="mb-2 size-4 text-slate-400" />}
        </div>

        {clients.isError && (
          <div className="p-4">
            <ErrorNote>{messageOfError(clients.error, 'An error has occurred. Could not load clients list.')}</ErrorNote>
          </div>
        )}

        {/* The table scrolls inside its box (`relative` keeps anything positioned in it there too), its cells on one line. */}
        <div className="relative overflow-x-auto">
          <table className="w-full divide-y divide-slate-200 text-sm dark:divide-slate-800" aria-label="Clients" aria-busy={clients.isFetching}>
            <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
              <tr>
                {COLUMNS.map((column) => {
                  const sorted = column.sortable && sort.key === column.key;
                  return (
                    <th
                      key={column.key}
                      scope="col"
                      className="px-4 py-2 whitespace-nowrap"
                      aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {column.sortable ? (
                        <button type="button" onClick={() => toggleSort(column.key as SortKey)} className="inline-flex items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white">
                          {column.label}
                          <span aria-hidden="true" className={sorted ? '' : 'opacity-30'}>{sorted && sort.direction === 'desc' ? '▼' : '▲'}</span>
                        </button>
                      ) : (
                        column.label
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {clients.data?.clients.map((client) => (
                <tr
                  key={client.id}
                  data-testid="client-row"
                  tabIndex={0}
                  aria-label={`Open ${client.full_name}`}
                  onClick={() => openClientModal(client.id)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      openClientModal(client.id);
                    }
                  }}
                  className="cursor-pointer hover:bg-sky-50 focus-visible:bg-sky-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-600 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 dark:focus-visible:outline-sky-400"
                >
                  {COLUMNS.map((column) => (
                    <td key={column.key} className={`px-4 py-2 align-top text-slate-700 dark:text-slate-300 ${column.key === 'tags' ? 'min-w-40' : 'whitespace-nowrap'}`}>
                      {column.render(client)}
                    </td>
                  ))}
                </tr>
              ))}
              {clients.data && clients.data.clients.length === 0 && (
                <tr>
                  <td colSpan={COLUMNS.length} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">No clients match.</td>
                </tr>
              )}
              {clients.isPending && (
                <tr>
                  <td colSpan={COLUMNS.length} className="px-4 py-10"><LoadingText label="Loading clients" className="justify-center" /></td>
                </tr>
              )}
            </tbody>
          </table>
        </div>

        <Pagination
          page={page}
          perPage={perPage}
          pageSizes={PAGE_SIZES}
          total={clients.data?.meta.total ?? 0}
          onPageChange={(next) => setState({ page: next })}
          onPerPageChange={(size) => changeFilter({ per_page: size })}
        />
      </Card>
    </>
  );
}
