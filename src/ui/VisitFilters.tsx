// The visit filters of a list or a report: practitioners, appointment types and business locations, each a
// multi-select whose empty choice means all. Inactive practitioners are offered only where asked (reports look back
// at visits of practitioners who have since left) or when already chosen.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../app/ServicesContext';
import { MultiSelect } from './MultiSelect';
import { appointmentTypeQueries, businessLocationQueries, practitionerQueries } from '../entities/appointments/queries';

export interface VisitFilterValue {
  practitioner: number[];
  type: number[];
  location: number[];
}

export function VisitFilters({ value, onChange, includeInactive = false }: {
  value: VisitFilterValue;
  onChange: (patch: Partial<VisitFilterValue>) => void;
  includeInactive?: boolean;
}) {
  const { api } = useServices();
  const practitioners = useQuery(practitionerQueries.all(api));
  const types = useQuery(appointmentTypeQueries.all(api));
  const locations = useQuery(businessLocationQueries.all(api));
  const offered = (practitioners.data ?? []).filter((practitioner) => includeInactive || practitioner.active || value.practitioner.includes(practitioner.id));
  return (
    <>
      <div className="md:min-w-0 md:flex-1">
        <MultiSelect
          label="Practitioners"
          testId="filter-practitioners"
          options={offered.map((practitioner) => ({ id: practitioner.id, name: practitioner.active ? practitioner.full_name : `${practitioner.full_name} (inactive)` }))}
          placeholder="All"
          value={value.practitioner}
          onChange={(ids) => onChange({ practitioner: ids })}
          loading={practitioners.isPending}
          failed={practitioners.isError}
        />
      </div>
      <div className="md:min-w-0 md:flex-1">
        <MultiSelect
          label="Appointment types"
          testId="filter-appointment-types"
          options={(types.data ?? []).map((type) => ({ id: type.id, name: type.name }))}
          placeholder="All"
          value={value.type}
          onChange={(ids) => onChange({ type: ids })}
          loading={types.isPending}
          failed={types.isError}
        />
      </div>
      <div className="md:min-w-0 md:flex-1">
        <MultiSelect
          label="Business locations"
          testId="filter-business-locations"
          options={(locations.data ?? []).map((location) => ({ id: location.id, name: location.name }))}
          placeholder="All"
          value={value.location}
          onChange={(ids) => onChange({ location: ids })}
          loading={locations.isPending}
          failed={locations.isError}
        />
      </div>
    </>
  );
}
