// Reports (ADMIN): GET /reports/…, each computed in SQL for the caller's business.
import { callerOf } from '../../auth/access';
import { ListCache } from '../../db/list-cache';
import { queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { activityReport } from './activity';
import { appointmentsReport } from './appointments';
import { clientsMissingAddress } from './clients-missing-address';
import { clientTravel, clientTravelVisits } from './client-travel';
import { clientGeography } from './client-geography';
import { reportFiltersOf, reportPageOf } from './filters';
import { practitionerPerformance } from './practitioner-performance';
import { practitionerTravel, practitionerTravelLegs } from './practitioner-travel';
import { visitVerification } from './visit-verification';

export function reportsHandlers(ctx: AppContext): Handlers {
  // Reports' figures that read only what lists_version tracks (the Appointments report's, Practitioner performance's
  // counts, Client geography's answers), kept while the business's lists_version stays the same.
  const figures = new ListCache(ctx.db, ctx.config.listCacheMb);
  return {
    reportClientsMissingAddress: async (request) =>
      clientsMissingAddress(ctx.db, callerOf(request).businessAccountId, reportFiltersOf(queryOf(request, 'reportClientsMissingAddress'))),
    reportPractitionerTravel: async (request) =>
      practitionerTravel(ctx, callerOf(request).businessAccountId, reportFiltersOf(queryOf(request, 'reportPractitionerTravel'))),
    reportPractitionerTravelLegs: async (request) => {
      const query = queryOf(request, 'reportPractitionerTravelLegs');
      return practitionerTravelLegs(ctx, callerOf(request).businessAccountId, reportFiltersOf(query), { practitionerId: query.practitioner_id, day: query.day });
    },
    reportPractitionerPerformance: async (request) =>
      practitionerPerformance(ctx, figures, callerOf(request).businessAccountId, reportFiltersOf(queryOf(request, 'reportPractitionerPerformance'))),
    reportClientGeography: async (request) => {
      const query = queryOf(request, 'reportClientGeography');
      return clientGeography(ctx, figures, callerOf(request).businessAccountId, reportFiltersOf(query), {
        radiusKm: query.radius_km, groupBy: query.group_by, sort: query.sort, page: reportPageOf(query),
      });
    },
    reportClientTravel: async (request) => clientTravel(ctx, callerOf(request).businessAccountId, queryOf(request, 'reportClientTravel')),
    reportClientTravelVisits: async (request) => clientTravelVisits(ctx, callerOf(request).businessAccountId, queryOf(request, 'reportClientTravelVisits')),
    reportActivity: async (request) => {
      const query = queryOf(request, 'reportActivity');
      return activityReport(ctx.db, callerOf(request).businessAccountId, { ...reportFiltersOf(query), kinds: query.kinds ?? [], author: query.author ?? null }, {
        sort: query.sort, page: reportPageOf(query, 'desc'),
      });
    },
    reportAppointments: async (request) => {
      const query = queryOf(request, 'reportAppointments');
      return appointmentsReport(ctx, figures, callerOf(request).businessAccountId, reportFiltersOf(query), query.group_by ?? 'practitioner');
    },
    reportVisitVerification: async (request) => {
      const query = queryOf(request, 'reportVisitVerification');
      return visitVerification(ctx, callerOf(request).businessAccountId, reportFiltersOf(query), { sort: query.sort ?? 'starts_at', page: reportPageOf(query) });
    },
  };
}
