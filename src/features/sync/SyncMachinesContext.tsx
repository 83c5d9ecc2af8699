// The machines the sync views run; tests provide versions with short delays or fake effects (`.provide()`).
import { createContext, useContext, type ReactNode } from 'react';
import { jobPollingMachine } from '../../machines/jobPolling';
import { syncFormMachine } from '../../machines/syncForm';

export interface SyncMachines {
  polling: typeof jobPollingMachine;
  form: typeof syncFormMachine;
}

const defaults: SyncMachines = { polling: jobPollingMachine, form: syncFormMachine };
const SyncMachinesContext = createContext<SyncMachines>(defaults);

export function SyncMachinesProvider({ machines, children }: { machines: Partial<SyncMachines>; children: ReactNode }) {
  return <SyncMachinesContext.Provider value={{ ...defaults, ...machines }}>{children}</SyncMachinesContext.Provider>;
}

export function useSyncMachines(): SyncMachines {
  return useContext(SyncMachinesContext);
}
