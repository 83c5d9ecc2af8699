// Every module's handlers, merged into one table keyed by operationId.
import type { Handlers } from '../http/contract';
import type { AppContext } from '../http/context';
import { authHandlers } from './auth/handlers';
import { configHandlers } from './config/handlers';
import type { AuthService } from './auth/service';
import { businessLocationsHandlers } from './business-locations/handlers';
import { practitionersHandlers } from './practitioners/handlers';
import { syncHandlers } from './sync/handlers';
import { appointmentTypesHandlers } from './appointment-types/handlers';
import { appointmentsHandlers } from './appointments/handlers';
import { clientsHandlers } from './clients/handlers';
import { customLocationsHandlers } from './custom-locations/handlers';
import { optimizationSettingsHandlers } from './optimization-settings/handlers';
import { optimizationsHandlers } from './optimizations/handlers';
import { geocodingHandlers } from './geocoding/handlers';
import { publicAvailabilityHandlers } from './public-availability/handlers';
import { tagsHandlers } from './tags/handlers';
import { travelHandlers } from './travel/handlers';

export function buildHandlers(ctx: AppContext, auth: AuthService): Handlers {
  return {
    ...authHandlers(auth),
    ...configHandlers(ctx),
    ...businessLocationsHandlers(ctx),
    ...practitionersHandlers(ctx),
    ...customLocationsHandlers(ctx),
    ...optimizationSettingsHandlers(ctx),
    ...syncHandlers(ctx),
    ...clientsHandlers(ctx),
    ...geocodingHandlers(ctx),
    ...tagsHandlers(ctx),
    ...appointmentTypesHandlers(ctx),
    ...appointmentsHandlers(ctx),
    ...publicAvailabilityHandlers(ctx),
    ...optimizationsHandlers(ctx),
    ...travelHandlers(ctx),
  };
}
