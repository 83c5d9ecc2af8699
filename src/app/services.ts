// Creates and wires the app's long-lived actors. The running app makes one set; every test
// makes a fresh one.
import { createActor, type Actor } from 'xstate';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import type { QueryClient } from '@tanstack/react-query';
import { createAppQueryClient, type ApiClient } from '../api/client';
import { apiClient, bindSession } from '../api/session';
import { recordVisitStep } from '../api/visitSteps';
import { keepDayOffline } from '../lib/offlineDay';
import { endPendingSessions } from '../lib/pendingLogouts';
import { createStepOutbox, type StepOutbox } from '../lib/stepOutbox';
import { arrivalTimeEditorMachine } from '../machines/arrivalTimeEditor';
import { authMachine, selectIsAuthenticated, selectRole, type AuthInput } from '../machines/auth';
import { availabilityEditorMachine } from '../machines/availabilityEditor';
import { flashMessagesMachine } from '../machines/flashMessages';
import { jobRunMachine, type JobRunInput } from '../machines/jobRun';
import { optimizationRunMachine } from '../machines/optimizationRun';
import { sidebarMachine } from '../machines/sidebar';
import { startUpMachine } from '../machines/startUp';
import { syncFormMachine } from '../machines/syncForm';
import { themeMachine, type ThemeInput } from '../machines/theme';
import { visitStepsMachine } from '../machines/visitSteps';

export type Navigate = (to: string, options?: { replace?: boolean }) => void;

/**
 * Every machine the app runs. Each has its effects' default implementations in its own `setup()`, but `jobRun`, whose
 * calls the feature running the job gives with `.provide()`; the services start the long-lived ones and own the job
 * actors views start through `followJob`; views create the others from here (adding with `.provide()` only what the
 * view alone knows, such as a mutation). Tests swap effects or delays with
 * `.provide()` and pass the result in `AppServicesOptions.machines`: the one place where machines are injected.
 */
export interface AppMachines {
  auth: typeof authMachine;
  startUp: typeof startUpMachine;
  flash: typeof flashMessagesMachine;
  sidebar: typeof sidebarMachine;
  theme: typeof themeMachine;
  jobRun: typeof jobRunMachine;
  syncForm: typeof syncFormMachine;
  arrivalTimeEditor: typeof arrivalTimeEditorMachine;
  availabilityEditor: typeof availabilityEditorMachine;
  optimizationRun: typeof optimizationRunMachine;
  visitSteps: typeof visitStepsMachine;
}

const APP_MACHINES: AppMachines = {
  auth: authMachine,
  startUp: startUpMachine,
  flash: flashMessagesMachine,
  sidebar: sidebarMachine,
  theme: themeMachine,
  jobRun: jobRunMachine,
  syncForm: syncFormMachine,
  arrivalTimeEditor: arrivalTimeEditorMachine,
  availabilityEditor: availabilityEditorMachine,
  optimizationRun: optimizationRunMachine,
  visitSteps: visitStepsMachine,
};

export interface AppServices {
  auth: Actor<typeof authMachine>;
  startUp: Actor<typeof startUpMachine>;
  flash: Actor<typeof flashMessagesMachine>;
  sidebar: Actor<typeof sidebarMachine>;
  theme: Actor<typeof themeMachine>;
  machines: AppMachines;
  api: ApiClient;
  queryClient: QueryClient;
  /** Visit steps taken without signal, sent in order when the network is back. */
  stepOutbox: StepOutbox;
  /**
   * Starts following a job (an import, an export): `run` is `machines.jobRun` with the feature's calls given through
   * `.provide()`. The services own the actor, not the view that starts it: an export whose panel was closed goes on
   * until its job ends; any job still followed stops when the user logs out and with the services.
   */
  followJob: (run: AppMachines['jobRun'], input: JobRunInput) => Actor<AppMachines['jobRun']>;
  navigate: Navigate;
  stop: () => void;
}

export interface AppServicesOptions {
  navigate?: Navigate;
  /** Machines with test doubles swapped in through `.provide()`. */
  machines?: Partial<AppMachines>;
  /** Start from this session instead of the one stored in localStorage. */
  authInput?: AuthInput;
  themeInput?: ThemeInput;
}

export function createAppServices(options: AppServicesOptions = {}): AppServices {
  const navigate = options.navigate ?? browserNavigate;
  const machines: AppMachines = { ...APP_MACHINES, ...options.machines };
  const queryClient = createAppQueryClient();

  const flash = createActor(machines.flash);
  const sidebar = createActor(machines.sidebar);
  const theme = createActor(machines.theme, { input: options.themeInput });
  const auth = createActor(machines.auth, { input: options.authInput });
  const startUp = createActor(machines.startUp);

  const unbindSession = bindSession(
    {
      getToken: () => auth.getSnapshot().context.token,
      onUnauthorized: (reason) => auth.send({ type: 'UNAUTHORIZED', reason }),
      // A refusal may mean the role changed since the user was loaded: the guards and menus follow the fresh one.
      onForbidden: () => auth.send({ type: 'LOAD_USER' }),
      onAccountCode: (code) => startUp.send({ type: 'ACCOUNT_CODE', code }),
    },
    queryClient,
  );

  const stepOutbox = createStepOutbox({
    send: (appointmentId, step, signal) => recordVisitStep(apiClient, appointmentId, step, signal),
    // A step that waited reached the server, perhaps after a long time offline: everything shown is read again.
    onRecorded: () => void queryClient.invalidateQueries(),
    isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  });
  const followedJobs = new Set<Actor<AppMachines['jobRun']>>();
  const followJob = (run: AppMachines['jobRun'], input: JobRunInput) => {
    const job = createActor(run, { input });
    followedJobs.add(job);
    // Completes when the run ends, and when the actor is stopped.
    job.subscribe({ complete: () => followedJobs.delete(job) });
    return job.start();
  };
  const stopFollowedJobs = () => {
    for (const job of followedJobs) job.stop();
  };

  const backOnline = () => {
    void endPendingSessions();
    if (selectIsAuthenticated(auth.getSnapshot())) void stepOutbox.flush();
  };
  window.addEventListener('online', backOnline);

  const subscriptions = [
    startUp.on('loadUser', () => auth.send({ type: 'LOAD_USER' })),
    startUp.on('navigate', (event) => navigate(event.to)),
    startUp.on('notice', (event) => flash.send({ type: 'APPEND', text: event.text, flashType: event.kind })),
  ];

  let wasAuthenticated = false;
  // A practitioner's day is kept on the phone for when there is no signal; nobody else's, and nothing after logging out.
  let keepsDay = false;
  const followDayKept = (snapshot: ReturnType<typeof auth.getSnapshot>) => {
    const keep = selectIsAuthenticated(snapshot) && selectRole(snapshot) === 'PRACTITIONER';
    if (keep !== keepsDay) keepDayOffline(keep);
    keepsDay = keep;
  };
  const keepingDay = auth.subscribe(followDayKept);
  // The outbox holds the logged-in user's steps, sent as soon as they are logged in; at log out (or a session that
  // ended) they stay on the phone for that user only.
  let stepsOwner: number | null = null;
  const followStepsOwner = (snapshot: ReturnType<typeof auth.getSnapshot>) => {
    const owner = selectIsAuthenticated(snapshot) ? snapshot.context.user?.id ?? null : null;
    if (owner === stepsOwner) return;
    stepsOwner = owner;
    stepOutbox.setUser(owner);
    if (owner !== null) void stepOutbox.flush();
  };
  const followingStepsOwner = auth.subscribe(followStepsOwner);
  const followAuth = auth.subscribe((snapshot) => {
    const isAuthenticated = selectIsAuthenticated(snapshot);
    if (isAuthenticated === wasAuthenticated) return;
    wasAuthenticated = isAuthenticated;
    if (isAuthenticated) {
      startUp.send({ type: 'AUTHENTICATED' });
    } else {
      startUp.send({ type: 'LOGGED_OUT' });
      // Another user may log in next: nothing cached may leak across sessions, the jobs followed (an export's outcome
      // told to the next user) included.
      stopFollowedJobs();
      queryClient.clear();
    }
  });

  // Back on the tab: the user is read again, so a role changed meanwhile (promoted, demoted) shows at once.
  const refreshUser = () => {
    if (document.visibilityState === 'visible' && selectIsAuthenticated(auth.getSnapshot())) auth.send({ type: 'LOAD_USER' });
  };
  document.addEventListener('visibilitychange', refreshUser);

  for (const actor of [flash, sidebar, theme, startUp, auth]) actor.start();
  // subscribe() does not replay the current snapshot: a restored session starts up here.
  followDayKept(auth.getSnapshot());
  followStepsOwner(auth.getSnapshot());
  if (selectIsAuthenticated(auth.getSnapshot())) {
    wasAuthenticated = true;
    startUp.send({ type: 'AUTHENTICATED' });
  }
  void endPendingSessions();

  return {
    auth,
    startUp,
    flash,
    sidebar,
    theme,
    machines,
    api: apiClient,
    queryClient,
    stepOutbox,
    followJob,
    navigate,
    stop: () => {
      stopFollowedJobs();
      followAuth.unsubscribe();
      keepingDay.unsubscribe();
      followingStepsOwner.unsubscribe();
      window.removeEventListener('online', backOnline);
      stepOutbox.stop();
      document.removeEventListener('visibilitychange', refreshUser);
      for (const subscription of subscriptions) subscription.unsubscribe();
      for (const actor of [auth, startUp, theme, sidebar, flash]) actor.stop();
      unbindSession();
      queryClient.clear();
    },
  };
}
