import type { ReactNode } from 'react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated } from '../../machines/auth';
import { Icon } from '../../ui/Icon';
import { Button } from '../../ui/Button';

/**
 * An error page: full screen on its own (/errors/404, /errors/500, the root error boundary), or inside the
 * layout's content area (`inLayout`, the pages' error boundary), where the layout already holds the <main>.
 */
export function ErrorPage({ code, title, message, inLayout = false, actions, onLeave }: {
  code: string;
  title: string;
  message: string;
  inLayout?: boolean;
  actions?: ReactNode;
  /** Called when the user follows the way back (an error boundary starts again, even on the same path). */
  onLeave?: () => void;
}) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  const content = (
    <>
      <Icon name="logo" className="size-10 text-sky-600 dark:text-sky-400" />
      <p className="mt-6 text-6xl font-bold tracking-tight text-sky-600 dark:text-sky-400">{code}</p>
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 max-w-md text-slate-600 dark:text-slate-400">{message}</p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
        <Button href={authenticated ? '/dashboard' : '/login'} onClick={onLeave}>
          {authenticated ? 'Back to the dashboard' : 'Go to log in'}
        </Button>
        {actions}
      </div>
    </>
  );
  if (inLayout) return <div className="flex flex-col items-center px-4 py-16 text-center">{content}</div>;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 text-center text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      {content}
    </main>
  );
}

const SERVER_ERROR_TITLE = 'Something went wrong';

export function ServerErrorContent({ inLayout = false, actions, onLeave }: { inLayout?: boolean; actions?: ReactNode; onLeave?: () => void }) {
  return (
    <ErrorPage
      code="500"
      title={SERVER_ERROR_TITLE}
      message="The server could not complete the request. Please try again in a moment."
      inLayout={inLayout}
      actions={actions}
      onLeave={onLeave}
    />
  );
}
