import { QueryClientProvider } from '@tanstack/react-query';
import { ServicesProvider } from './app/ServicesContext';
import type { AppServices } from './app/services';
import { AppRoutes } from './router/AppRoutes';
import { ErrorBoundary } from './shell/errors/ErrorBoundary';

export function App({ services }: { services: AppServices }) {
  return (
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <ErrorBoundary>
          <AppRoutes />
        </ErrorBoundary>
      </QueryClientProvider>
    </ServicesProvider>
  );
}
