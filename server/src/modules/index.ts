// Every module's handlers, merged into one table keyed by operationId.
import type { Handlers } from '../http/contract';
import type { AppContext } from '../http/context';
import { authHandlers, type AuthService } from './auth';
import { configHandlers } from './config';
import { businessLocationsHandlers } from './business-locations';
import { practitionersHandlers } from './practitioners';
import { syncHandlers } from './sync';
import { appointmentTypesHandlers } from './appointment-types';
import { appointmentsHandlers } from './appointments';
import { clientsHandlers } from './clients';
import { customLocationsHandlers } from './custom-locations';
import { dashboardHandlers } from './dashboard';
import { nearbyHandlers } from './nearby';
import { optimizationSettingsHandlers } from './optimization-settings';
import { optimizationsHandlers } from './optimizations';
import { scheduleHandlers } from './schedule';
import { geocodingHandlers } from './geocoding';
import { publicAvailabilityHandlers } from './public-availability';
import { remindersHandlers } from './reminders';
import { reportsHandlers } from './reports';
import { leaveHandlers } from './leave';
import { liveHandlers } from './live';
import { tagsHandlers } from './tags';
import { travelHandlers } from './travel';
import { usersHandlers } from './users';
import { businessAccountHandlers } from './business-account';
import { subscriptionHandlers } from './subscriptions';
import { bookingsHandlers } from './bookings';
import { careHandlers } from './care';

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
    ...leaveHandlers(ctx),
    ...tagsHandlers(ctx),
    ...appointmentTypesHandlers(ctx),
    ...appointmentsHandlers(ctx),
    ...publicAvailabilityHandlers(ctx),
    ...scheduleHandlers(ctx),
    ...optimizationsHandlers(ctx),
    ...travelHandlers(ctx),
    ...reportsHandlers(ctx),
    ...dashboardHandlers(ctx),
    ...nearbyHandlers(ctx),
    ...usersHandlers(ctx, auth),
    ...businessAccountHandlers(ctx),
    ...subscriptionHandlers(ctx),
    ...remindersHandlers(ctx),
    ...liveHandlers(ctx),
    ...bookingsHandlers(ctx),
    // After bookings': care's bookVisit wraps bookings' to fill an open visit (open_visit_id) in the same transaction.
    ...careHandlers(ctx),
  };
}
