import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { AppServices } from './services';

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}

type Snap<K extends keyof AppServices> = AppServices[K] extends { getSnapshot: () => infer S } ? S : never;

export function useAuthSelector<T>(selector: (snapshot: SnapshotFrom<AppServices['auth']>) => T): T {
  return useSelector(useServices().auth, selector);
}
export function useFlashSelector<T>(selector: (snapshot: Snap<'flash'>) => T): T {
  return useSelector(useServices().flash, selector);
}
export function useSidebarSelector<T>(selector: (snapshot: Snap<'sidebar'>) => T): T {
  return useSelector(useServices().sidebar, selector);
}
export function useStartUpSelector<T>(selector: (snapshot: Snap<'startUp'>) => T): T {
  return useSelector(useServices().startUp, selector);
}
export function useThemeSelector<T>(selector: (snapshot: Snap<'theme'>) => T): T {
  return useSelector(useServices().theme, selector);
}
