// HTTP handlers of imports, exports, the provider account, sync settings and an appointment's extra details (operationIds in openapi.yaml).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { appointmentsServiceOf } from '../appointments';
import { appointmentSyncHistory } from './appointment-history';
import { cancelSyncJob, createSyncJob, findVisibleJob, listJobs, previewExport, toExportDto, toImportDto } from './jobs-service';
import { connectProviderAccount, disconnectProviderAccount, toProviderAccountDto } from './provider-account-service';
import { readSyncSettings, updateSyncSettings } from './settings-service';
import { findProviderAccount } from './pms-connection';

export function syncHandlers(ctx: AppContext): Handlers {
  const appointments = appointmentsServiceOf(ctx);
  return {
    // An appointment's extra details: its change log (the appointments module, which also answers 404 for one the caller
    // may not see) with the PMS record it mirrors and when it was imported and exported.
    getAppointmentExtraDetails: async (request) => {
      const auth = callerOf(request);
      const { id } = paramsOf(request, 'getAppointmentExtraDetails');
      const versions = await appointments.changeLog(auth, id);
      const history = await appointmentSyncHistory(ctx.db, auth.businessAccountId, id);
      return { resource_map: history.resource_map, versions, import_history: history.import_history, export_history: history.export_history };
    },

    createImport: async (request, reply) => {
      const job = await createSyncJob(ctx, callerOf(request), 'IMPORT', bodyOf(request, 'createImport'));
      return reply.code(201).send({ import: toImportDto(job) });
    },
    getImport: async (request) => ({ import: toImportDto(await findVisibleJob(ctx, callerOf(request), 'IMPORT', paramsOf(request, 'getImport').id)) }),
    listImports: async (request) => {
      const { page = 1, per_page = 20 } = queryOf(request, 'listImports');
      const { rows, meta } = await listJobs(ctx, callerOf(request), 'IMPORT', page, per_page);
      return { imports: rows.map(toImportDto), meta };
    },
    cancelImport: async (request) => ({ import: toImportDto(await cancelSyncJob(ctx, callerOf(request), 'IMPORT', paramsOf(request, 'cancelImport').id)) }),

    createExport: async (request, reply) => {
      const job = await createSyncJob(ctx, callerOf(request), 'EXPORT', bodyOf(request, 'createExport'));
      return reply.code(201).send({ export: toExportDto(job) });
    },
    previewExport: async (request) => ({ preview: await previewExport(ctx, callerOf(request), bodyOf(request, 'previewExport')) }),
    getExport: async (request) => ({ export: toExportDto(await findVisibleJob(ctx, callerOf(request), 'EXPORT', paramsOf(request, 'getExport').id)) }),
    listExports: async (request) => {
      const { page = 1, per_page = 20 } = queryOf(request, 'listExports');
      const { rows, meta } = await listJobs(ctx, callerOf(request), 'EXPORT', page, per_page);
      return { exports: rows.map(toExportDto), meta };
    },
    cancelExport: async (request) => ({ export: toExportDto(await cancelSyncJob(ctx, callerOf(request), 'EXPORT', paramsOf(request, 'cancelExport').id)) }),

    getCurrentProviderAccount: async (request) => {
      const account = await findProviderAccount(ctx.db, callerOf(request).businessAccountId);
      return { provider_account: account ? toProviderAccountDto(account) : null };
    },
    connectProviderAccount: async (request, reply) => {
      const account = await connectProviderAccount(ctx, callerOf(request), bodyOf(request, 'connectProviderAccount').api_key);
      return reply.code(201).send({ provider_account: toProviderAccountDto(account) });
    },
    disconnectProviderAccount: async (request) => ({ provider_account: toProviderAccountDto(await disconnectProviderAccount(ctx, callerOf(request))) }),

    getSyncSettings: async (request) => ({ sync_settings: await readSyncSettings(ctx, callerOf(request)) }),
    updateSyncSettings: async (request) => ({ sync_settings: await updateSyncSettings(ctx, callerOf(request), bodyOf(request, 'updateSyncSettings')) }),
  };
}
