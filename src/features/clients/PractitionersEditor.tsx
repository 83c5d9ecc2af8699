// The client's preferred and excluded practitioners: two multi-selects of the business's practitioners (a
// practitioner chosen in one is not offered in the other); saving sends both through useUpdateClientPractitioners.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { Button } from '../../ui/Button';
import { MultiSelect } from '../../ui/MultiSelect';
import { practitionerQueries } from '../../entities/appointments/queries';
import type { Client } from '../../entities/clients/api';
import { useUpdateClientPractitioners } from './mutations';

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id) => b.includes(id));

export function PractitionersEditor({ client, onUnsavedChange }: {
  client: Pick<Client, 'id' | 'full_name' | 'preferred_practitioner_ids' | 'excluded_practitioner_ids'>;
  /** Told whenever the choice starts or stops differing from the saved one. */
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const { api } = useServices();
  const practitioners = useQuery(practitionerQueries.all(api));
  const save = useUpdateClientPractitioners(client.id);
  const [preferred, setPreferred] = useState<number[]>(client.preferred_practitioner_ids);
  const [excluded, setExcluded] = useState<number[]>(client.excluded_practitioner_ids);

  const unsaved = !sameIds(preferred, client.preferred_practitioner_ids) || !sameIds(excluded, client.excluded_practitioner_ids);
  useEffect(() => onUnsavedChange?.(unsaved), [onUnsavedChange, unsaved]);

  // Active practitioners, and any already chosen who is no longer active.
  const chosen = [...client.preferred_practitioner_ids, ...client.excluded_practitioner_ids];
  const offered = (practitioners.data ?? [])
    .filter((practitioner) => practitioner.active || chosen.includes(practitioner.id))
    .map((practitioner) => ({ id: practitioner.id, name: practitioner.active ? practitioner.full_name : `${practitioner.full_name} (inactive)` }));
  const listState = { loading: practitioners.isPending, failed: practitioners.isError };

  return (
    <form
      aria-label="Practitioners"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const byId = (a: number, b: number) => a - b;
        save.mutate(
          { preferred_practitioner_ids: [...preferred].sort(byId), excluded_practitioner_ids: [...excluded].sort(byId) },
          {
            onSuccess: (saved) => {
              setPreferred(saved.preferred_practitioner_ids);
              setExcluded(saved.excluded_practitioner_ids);
            },
          },
        );
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <MultiSelect
            label="Preferred"
            options={offered.filter((option) => !excluded.includes(option.id))}
            value={preferred}
            onChange={setPreferred}
            placeholder="No preference"
            testId="client-preferred-practitioners"
            {...listState}
          />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Favoured when an optimisation may give visits to other practitioners.</p>
        </div>
        <div>
          <MultiSelect
            label="Excluded"
            options={offered.filter((option) => !preferred.includes(option.id))}
            value={excluded}
            onChange={setExcluded}
            placeholder="No one excluded"
            testId="client-excluded-practitioners"
            {...listState}
          />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">Never given {client.full_name}’s visits, by an optimisation or by hand.</p>
        </div>
      </div>
      <Button type="submit" variant="secondary" size="sm" busy={save.isPending}>
        Save practitioners
      </Button>
    </form>
  );
}
