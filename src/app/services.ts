// Creates and wires the app's long-lived actors. The running app makes one set; every test
// makes a fresh one.
import { createActor, type Actor } from 'xstate';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import type { QueryClient } from '@tanstack/react-query';
import { createAppQueryClient, type ApiClient } from '../api/client';
import { apiClient, bindSession } from '../api/session';
import { authMachine, selectIsAuthenticated, type AuthInput } from '../machines/auth';
import { startUpMachine } from '../machines/startUp';
import { flashMessagesMachine } from '../machines/flashMessages';
import { sidebarMachine } from '../machines/sidebar';
import { themeMachine, type ThemeInput } from '../machines/theme';

export type Navigate = (to: string, options?: { replace?: boolean }) => void;

export interface AppServices {
  auth: Actor<typeof authMachine>;
  startUp: Actor<typeof startUpMachine>;
  flash: Actor<typeof flashMessagesMachine>;
  sidebar: Actor<typeof sidebarMachine>;
  theme: Actor<typeof themeMachine>;
  api: ApiClient;
  queryClient: QueryClient;
  navigate: Navigate;
  stop: () => void;
}

export interface AppServicesOptions {
  navigate?: Navigate;
  /** Machines with test doubles swapped in through `.provide()`. */
  machines?: Partial<{
    auth: typeof authMachine;
    startUp: typeof startUpMachine;
    flash: typeof flashMessagesMachine;
    sidebar: typeof sidebarMachine;
    theme: typeof themeMachine;
  }>;
  /** Start from this session instead of the one stored in localStorage. */
  authInput?: AuthInput;
  themeInput?: ThemeInput;
}

export function createAppServices(options: AppServicesOptions = {}): AppServices {
  const navigate = options.navigate ?? browserNavigate;
  const machines = options.machines ?? {};
  const queryClient = createAppQueryClient();

  const flash = createActor(machines.flash ?? flashMessagesMachine);
  const sidebar = createActor(machines.sidebar ?? sidebarMachine);
  const theme = createActor(machines.theme ?? themeMachine, { input: options.themeInput });
  const auth = createActor(machines.auth ?? authMachine, { input: options.authInput });
  const startUp = createActor(machines.startUp ?? startUpMachine);

  const unbindSession = bindSession({
    getToken: () => auth.getSnapshot().context.token,
    onUnauthorized: () => auth.send({ type: 'UNAUTHORIZED' }),
    onAccountCode: (code) => startUp.send({ type: 'ACCOUNT_CODE', code }),
  });

  const subscriptions = [
    startUp.on('loadUser', () => auth.send({ type: 'LOAD_USER' })),
    startUp.on('navigate', (event) => navigate(event.to)),
    startUp.on('notice', (event) => flash.send({ type: 'APPEND', text: event.text, flashType: event.kind })),
  ];

  let wasAuthenticated = false;
  const followAuth = auth.subscribe((snapshot) => {
    const isAuthenticated = selectIsAuthenticated(snapshot);
    if (isAuthenticated === wasAuthenticated) return;
    wasAuthenticated = isAuthenticated;
    if (isAuthenticated) {
      startUp.send({ type: 'AUTHENTICATED' });
    } else {
      startUp.send({ type: 'LOGGED_OUT' });
      // Another user may log in next: nothing cached may leak across sessions.
      queryClient.clear();
    }
  });

  for (const actor of [flash, sidebar, theme, startUp, auth]) actor.start();
  // subscribe() does not replay the current snapshot: a restored session starts up here.
  if (selectIsAuthenticated(auth.getSnapshot())) {
    wasAuthenticated = true;
    startUp.send({ type: 'AUTHENTICATED' });
  }

  return {
    auth,
    startUp,
    flash,
    sidebar,
    theme,
    api: apiClient,
    queryClient,
    navigate,
    stop: () => {
      followAuth.unsubscribe();
      for (const subscription of subscriptions) subscription.unsubscribe();
      for (const actor of [auth, startUp, theme, sidebar, flash]) actor.stop();
      unbindSession();
      queryClient.clear();
    },
  };
}
